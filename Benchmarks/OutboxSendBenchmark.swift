import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

/// Sending 10,000 queued writes through a handler that answers at once (`Single.just(.sent())`),
/// as a relaunched app does with the writes an offline session left: the outbox has read its
/// journal (in `setUp`), and the timed run registers the handler and waits until the last
/// write's `.sent` change is delivered. The writes are spread over 100 scopes (their tags), so
/// the outbox's 4 concurrent sends are all used; the Teller has the defaults apps get (a
/// utility-QoS concurrent background queue, a 60 s timeout on every send). Issue #20 asks for
/// at least 20,000 writes per second.
final class OutboxSendBenchmark: Benchmark {
    let name = "outbox-send-10000"
    let operations = 10_000
    var expectedResult: Int { operations }
    private let work = OutboxEnqueueWork(pending: 10_000)
    private var folder: URL?
    private var outbox: TellerOutbox?
    private var sent: DispatchSemaphore?
    private var subscription: (any Disposable)?

    func setUp() {
        let (folder, url) = work.prepareFile()
        self.folder = folder
        let teller = Teller(metadataStore: InMemoryFetchMetadataStore(), appLifecycleNotifications: nil)
        let outbox = TellerOutbox(teller: teller, journalURL: url)
        guard outbox.pending.count == operations else {
            printError("outbox-send: the outbox read \(outbox.pending.count) writes, not \(operations)")
            exit(1)
        }
        let sent = DispatchSemaphore(value: 0)
        let count = LockedState(0)
        let total = operations
        subscription = outbox.changes.subscribe(onNext: { change in
            guard case .sent = change else { return }
            let done = count.withLock { count in
                count += 1
                return count == total
            }
            if done { sent.signal() }
        })
        self.outbox = outbox
        self.sent = sent
    }

    func run() -> Int {
        guard let outbox, let sent else { return 0 }
        outbox.register(kind: "saveNote") { _ in .just(.sent()) }
        sent.wait()
        return operations - outbox.pending.count
    }

    func tearDown() {
        subscription?.dispose()
        subscription = nil
        outbox = nil
        sent = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    func summary(medianRunNanoseconds: Double) -> String? {
        let perSecond = Double(operations) / (medianRunNanoseconds / 1_000_000_000)
        return "outbox-send-10000: \(Int(perSecond.rounded())) writes/s (median run)"
    }
}

/// The outbox's sending workload.
func addOutboxSendBenchmarks(to suite: inout BenchmarkSuite) {
    suite.add(OutboxSendBenchmark())
}
