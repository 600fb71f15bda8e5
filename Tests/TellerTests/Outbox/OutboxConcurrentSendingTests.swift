import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The outbox on real threads: writes enqueued from several threads at once, a handler that
/// answers on other threads and sometimes fails. (Run under ThreadSanitizer too.)
@Suite struct OutboxConcurrentSendingTests {
    @Test func writesEnqueuedFromManyThreadsAreEachSentOnceInScopeOrderWithinTheBound() throws {
        let journal = JournalFixture()
        defer { journal.removeFolder() }
        let teller = Teller(
            metadataStore: InMemoryFetchMetadataStore(),
            uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "outbox-tests.ui"),
            backgroundScheduler: ConcurrentDispatchQueueScheduler(qos: .userInitiated),
            fetchTimeout: nil,
            retryPolicy: try RetryPolicy(maxRetries: 100, initialDelay: .milliseconds(1), maxDelay: .milliseconds(1)),
            appLifecycleNotifications: nil
        )
        let bound = 3
        let outbox = TellerOutbox(teller: teller, journalURL: journal.url, maxConcurrentSends: bound)
        let scopes = 4
        let perScope = 25
        let total = scopes * perScope

        struct Observed {
            var inFlight: [String: Int] = [:]
            var mostInFlight = 0
            var mostInOneScope = 0
            var accepted: [String: [Int]] = [:]
        }
        let observed = Locked(Observed())
        let attempts = Locked(0)
        outbox.register(kind: "saveNote") { record in
            Single.create { answer in
                let number = attempts.withLock { count in
                    count += 1
                    return count
                }
                observed.withLock { observed in
                    observed.inFlight[record.scope, default: 0] += 1
                    observed.mostInOneScope = max(observed.mostInOneScope, observed.inFlight[record.scope] ?? 0)
                    observed.mostInFlight = max(observed.mostInFlight, observed.inFlight.values.reduce(0, +))
                }
                DispatchQueue.global().async {
                    let index = (try? JSONDecoder().decode(NoteEdit.self, from: record.payload)).flatMap {
                        Int($0.text)
                    }
                    let fails = number.isMultiple(of: 3)
                    observed.withLock { observed in
                        observed.inFlight[record.scope, default: 0] -= 1
                        if !fails, let index { observed.accepted[record.scope, default: []].append(index) }
                    }
                    answer(.success(fails ? .retryableFailure(TestError(number)) : .sent()))
                }
                return Disposables.create()
            }
        }
        let allSent = DispatchSemaphore(value: 0)
        let sentCount = Locked(0)
        let subscription = outbox.changes.subscribe(onNext: { change in
            guard case .sent = change else { return }
            if sentCount.withLock({ count in
                count += 1
                return count
            }) == total {
                allSent.signal()
            }
        })
        defer { subscription.dispose() }

        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: scopes) { scope in
            for index in 0..<perScope {
                do {
                    try outbox.enqueueNote("\(index)", tag: "scope \(scope)")
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.value == 0)
        #expect(allSent.wait(timeout: .now() + 120) == .success)
        let result = observed.value
        #expect(result.mostInOneScope == 1)
        #expect(result.mostInFlight <= bound)
        #expect(result.accepted.count == scopes)
        #expect(result.accepted.values.allSatisfy { $0 == Array(0..<perScope) })
        #expect(outbox.pending.isEmpty)
        #expect(try journal.journal().records().isEmpty)
    }
}
