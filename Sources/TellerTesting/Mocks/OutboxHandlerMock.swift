import Teller
@_spi(TellerInternals) import TellerRx

/// A scripted ``/Teller/TellerOutbox`` handler for tests: register its ``send`` for a kind, script what
/// each call answers, and read the calls it got.
///
/// ```swift
/// let env = TestScheduler(initialClock: 0)
/// let handler = OutboxHandlerMock(scheduler: env, answers: [
///     .retryableFailure(URLError(.notConnectedToInternet), after: 2),
///     .sent(invalidating: ["notes"], after: 3),
/// ])
/// outbox.register(kind: "saveNote", send: handler.send)
/// try outbox.enqueue(kind: "saveNote", payload: note, tag: "notes")
/// env.start()
/// // handler.sendInvocations: the record twice, its attempts 0 then 1
/// ```
///
/// Each call takes the next scripted answer, oldest first; ``sendClosure``, when set, answers
/// instead. A call with neither answers a retryable failure with a
/// ``MockClosureNotSetError`` naming `answers`, so the write stays pending and the error says
/// what to script. With a `TestScheduler`, answers come after their delays in virtual time, so
/// a test plays sends, retries and their backoff without waiting.
///
/// Threads: any. The records have their own locks; scripted `Single`s and ``sendClosure`` run
/// on the calling thread, outside them.
public final class OutboxHandlerMock: @unchecked Sendable {
    // @unchecked: every mutable value is behind a lock (the call record's, the script's).
    private let sendRecord: CallRecord<OutboxRecord, TellerOutbox.Send>
    private let script = LockedState(FIFOQueue<OutboxScriptedAnswer>())
    private let scheduler: TestScheduler?

    /// Creates a handler.
    ///
    /// - Parameters:
    ///   - scheduler: The virtual time answers are delayed on; `nil` answers at once.
    ///   - answers: The first calls' answers, in order.
    public init(scheduler: TestScheduler? = nil, answers: [OutboxScriptedAnswer] = []) {
        self.scheduler = scheduler
        sendRecord = CallRecord(MockUse())
        script(answers)
    }

    /// The handler to pass to ``/Teller/TellerOutbox/register(kind:onConflict:send:)``: records the write and
    /// answers it.
    public var send: TellerOutbox.Send {
        { [self] record in answer(record) }
    }

    /// Records `record` and returns its answer: ``sendClosure``'s, the next scripted one, or a
    /// retryable failure with a ``MockClosureNotSetError``.
    ///
    /// - Parameter record: The write the outbox sends.
    /// - Returns: The server's answer.
    public func answer(_ record: OutboxRecord) -> Single<OutboxSendOutcome> {
        if let closure = sendRecord.call(record) { return closure(record) }
        let next = script.withLock { $0.dequeue() }
        return next?.single(on: scheduler)
            ?? .just(.retryableFailure(MockClosureNotSetError(closureName: "answers")))
    }

    /// Adds answers for the calls after those already scripted.
    ///
    /// - Parameter answers: The answers, in call order.
    public func script(_ answers: [OutboxScriptedAnswer]) {
        script.withLock { script in
            for answer in answers { script.enqueue(answer) }
        }
    }

    /// How many scripted answers no call took yet.
    public var unusedAnswers: Int {
        script.withLock { $0.count }
    }

    /// Whether the handler was called.
    public var sendCalled: Bool { sendRecord.called }

    /// How many times the handler was called (every attempt counts).
    public var sendCallsCount: Int { sendRecord.callsCount }

    /// The write of every call, oldest first, as the outbox passed it (its
    /// ``/Teller/OutboxRecord/attempts`` says how many attempts came before).
    public var sendInvocations: [OutboxRecord] { sendRecord.invocations }

    /// Answers every call instead of the script when set; called on the calling thread (the
    /// Teller's background scheduler).
    public var sendClosure: TellerOutbox.Send? {
        get { sendRecord.closure }
        set { sendRecord.closure = newValue }
    }
}
