import Dispatch
import Foundation
import Teller
import TellerRx
import TellerTestSupport
import Testing

/// Two paging repositories of one data-source type showing one tag share its first-page
/// flights, so their first-page writes (`deleteCache` + `saveCache` of page 1) never overlap:
/// not even when a flight is cancelled while it saves and the next one starts meanwhile.
@Suite struct FirstPageWriteOverlapTests {
    @Test func aFirstPageWriteNeverStartsWhileTheCancelledFlightsWriteOfTheTagStillRuns() throws {
        let queues = LabelledQueues()
        let cancelled = DispatchSemaphore(value: 0)
        let teller = queues.teller(onLog: signalOnCancellation(cancelled))
        let record = WriteRecord()
        let requirements = TestRequirements(username: "octocat")
        let repositories = (1...2).map { number in
            let dataSource = PageNumberDataSource(automaticallyRefresh: false)
            dataSource.answerAtOnce()
            dataSource.onWrite = record.hook(named: "repository \(number)")
            let repository = TellerPagingRepository(
                dataSource: dataSource,
                firstPageRequirements: PageNumber(number: 1),
                teller: teller
            )
            repository.requirements = requirements
            return repository
        }

        // The first repository's flight fetches and starts replacing the first page; its caller
        // leaves while the write is held, which cancels the flight.
        let first = try repositories[0].refresh(force: true).subscribe()
        #expect(firstWriteHeld(record))
        first.dispose()
        _ = arrives(cancelled, within: 5)

        // A refresh of the other repository now: it must not write the tag while the held
        // write runs (it may join, or wait, but not overlap).
        let finished = DispatchSemaphore(value: 0)
        let second = try repositories[1].refresh(force: true).subscribe(onSuccess: { _ in finished.signal() })
        _ = arrives(record.laterWriteStarted, within: 2)
        record.openGate()
        _ = arrives(finished, within: 60)
        second.dispose()

        #expect(record.maximumAtOnce == 1, "writes of one tag overlapped: \(record.overlaps)")
    }

    private func firstWriteHeld(_ record: WriteRecord) -> Bool {
        record.firstWriteHeld.wait(timeout: .now() + 60) == .success
    }
}
