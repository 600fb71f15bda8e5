import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting

/// An outbox environment on virtual time: a ``VirtualTeller`` (one `TestScheduler` as clock
/// and schedulers, the log recorded) and a journal file in a new temporary folder.
struct OutboxFixture {
    let env: VirtualTeller
    let journal: JournalFixture

    init(retryPolicy: RetryPolicy = .never, fetchTimeout: RxTimeInterval? = .seconds(60)) {
        env = VirtualTeller(fetchTimeout: fetchTimeout, retryPolicy: retryPolicy)
        journal = JournalFixture()
    }

    /// The next launch of `previous`: a new environment on its journal.
    init(relaunching previous: OutboxFixture) {
        env = VirtualTeller()
        journal = previous.journal
    }

    var scheduler: TestScheduler {
        env.scheduler
    }

    /// An outbox on the fixture's journal; a second call is a relaunch, or a second process.
    func outbox(maxConcurrentSends: Int = 4) -> TellerOutbox {
        TellerOutbox(teller: env.teller, journalURL: journal.url, maxConcurrentSends: maxConcurrentSends)
    }

    /// An outbox on the fixture's journal whose `saveNote` writes go to a handler answering
    /// `answers`.
    func outbox(
        answering answers: [OutboxScriptedAnswer],
        maxConcurrentSends: Int = 4
    ) -> (TellerOutbox, OutboxHandlerMock) {
        let outbox = outbox(maxConcurrentSends: maxConcurrentSends)
        let handler = handler(answers)
        outbox.register(kind: "saveNote", send: handler.send)
        return (outbox, handler)
    }

    /// A handler answering `answers` in order, timed on the fixture's virtual time.
    func handler(_ answers: [OutboxScriptedAnswer]) -> OutboxHandlerMock {
        OutboxHandlerMock(scheduler: env.scheduler, answers: answers)
    }

    /// Advances virtual time one tick at a time up to `end`, checking `invariant` after each.
    func step(to end: TestTime, checking invariant: () -> Void) {
        for tick in (scheduler.clock + 1)...end {
            scheduler.advanceTo(tick)
            invariant()
        }
    }

    func logged(_ fragment: String) -> Bool {
        env.log.value.contains { $0.contains(fragment) }
    }

    func tearDown() {
        journal.removeFolder()
    }
}

/// A note edit, the payload of the tests' writes.
struct NoteEdit: Codable, Equatable {
    let text: String
}

extension TellerOutbox {
    /// Enqueues a `saveNote` write of `text` on `tag` (its scope unless `scope` says otherwise).
    @discardableResult
    func enqueueNote(_ text: String, tag: String = "notes", scope: String? = nil) throws -> OutboxRecord {
        try enqueue(kind: "saveNote", payload: NoteEdit(text: text), tag: tag, scope: scope)
    }
}

extension OutboxHandlerMock {
    /// The texts of the notes sent, in call order (every attempt counts).
    var sentTexts: [String] {
        sendInvocations.compactMap { try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text }
    }
}
