import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Many threads refreshing one tag at once: exactly one fetch, and an answer for every caller.
/// Runs under ThreadSanitizer in CI.
@Suite struct RefreshStressTests {
    @Test func thousandConcurrentRefreshesFromEightThreadsShareOneFetch() throws {
        let calls = 1_000
        let joined = Locked(0)
        let allJoined = DispatchSemaphore(value: 0)
        let teller = makeRealTeller { event in
            switch event {
            case .refreshStarted, .refreshJoined:
                let count = joined.withLock { count -> Int in
                    count += 1
                    return count
                }
                if count == calls { allJoined.signal() }
            default:
                break
            }
        }
        let gate = ReplaySubject<FetchResponse<[String], any Error>>.create(bufferSize: 1)
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in gate.take(1).asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = TestRequirements(username: "octocat")

        let answered = DispatchGroup()
        let results = Locked<[RefreshResult]>([])
        let refresh = try repository.refresh(force: true)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<(calls / 8) {
                answered.enter()
                _ = refresh.subscribe(onSuccess: { result in
                    results.withLock { $0.append(result) }
                    answered.leave()
                })
            }
        }
        #expect(allJoined.wait(timeout: .now() + 60) == .success, "only \(joined.value) of \(calls) calls joined")
        gate.onNext(.success(["a"]))
        #expect(answered.wait(timeout: .now() + 60) == .success)
        #expect(dataSource.calls.fetches == 1)
        #expect(results.value.count == calls)
        #expect(results.value.allSatisfy { $0 == .successful })
        withExtendedLifetime(repository) {}
    }

    @Test func refreshingWhileRequirementsChangeFromOtherThreadsAlwaysAnswersEveryCaller() throws {
        let teller = makeRealTeller()
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in .just(.success(["a"])) }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = TestRequirements(username: "user-0")
        let answered = DispatchGroup()
        let answers = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                if thread == 0 {
                    repository.requirements = TestRequirements(username: "user-\(round % 3)")
                    continue
                }
                guard let refresh = try? repository.refresh(force: round % 2 == 0) else { continue }
                answered.enter()
                _ = refresh.subscribe(onSuccess: { _ in
                    answers.withLock { $0 += 1 }
                    answered.leave()
                })
            }
        }
        #expect(answered.wait(timeout: .now() + 60) == .success)
        #expect(answers.value == 7 * 50)
        withExtendedLifetime(repository) {}
    }

    @Test func callersLeavingWhileOthersJoinFromEightThreadsNeverCostAnAnswer() throws {
        let teller = makeRealTeller()
        // Replays its one response, so a fetch started after it was sent still succeeds.
        let gate = ReplaySubject<FetchResponse<[String], any Error>>.create(bufferSize: 1)
        let dataSource = InMemoryDataSource(automaticallyRefresh: false)
        dataSource.respond { _ in gate.take(1).asSingle() }
        let repository = TellerRepository(dataSource: dataSource, teller: teller)
        repository.requirements = TestRequirements(username: "octocat")
        let refresh = try repository.refresh(force: true)

        let answered = DispatchGroup()
        let kept = Locked<[RefreshResult]>([])
        let answersToLeavers = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for call in 0..<125 {
                if call % 2 == 0 {
                    refresh.subscribe(onSuccess: { _ in answersToLeavers.withLock { $0 += 1 } }).dispose()
                    continue
                }
                answered.enter()
                _ = refresh.subscribe(onSuccess: { result in
                    kept.withLock { $0.append(result) }
                    answered.leave()
                })
            }
        }
        gate.onNext(.success(["a"]))
        #expect(answered.wait(timeout: .now() + 60) == .success)
        #expect(kept.value.count == 8 * 62)
        #expect(kept.value.allSatisfy { $0 == .successful })
        #expect(answersToLeavers.value == 0)
        #expect(dataSource.calls.fetches >= 1)
        withExtendedLifetime(repository) {}
    }
}
