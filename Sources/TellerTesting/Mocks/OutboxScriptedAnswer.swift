import Teller
import TellerRx

/// One scripted answer of an ``OutboxHandlerMock``: what the server says to one send, and after
/// how many ticks of the mock's `TestScheduler`.
///
/// A value: build it on any thread. Without a scheduler, or with a delay of 0, the answer comes
/// at once, on the thread that subscribed (the Teller's background scheduler).
public struct OutboxScriptedAnswer: Sendable {
    enum Answer: Sendable {
        case outcome(OutboxSendOutcome)
        case failure(any Error)
        case never
    }

    let answer: Answer
    /// Ticks of virtual time between the send and the answer.
    let delay: TestTime

    /// The server accepts the write, `ticks` after the send; `invalidating` tags and the
    /// branches `tagsUnder` are then invalidated.
    ///
    /// - Parameters:
    ///   - invalidating: The tags the sent write declares changed.
    ///   - tagsUnder: The branches of tags (``/Teller/TagPrefix``) it declares changed.
    ///   - ticks: Virtual time until the answer.
    public static func sent(
        invalidating: [String] = [],
        tagsUnder: [TagPrefix] = [],
        after ticks: TestTime = 0
    ) -> Self {
        Self(answer: .outcome(.sent(invalidating: invalidating, tagsUnder: tagsUnder)), delay: ticks)
    }

    /// The send fails with `error`, worth trying again, `ticks` after the send.
    ///
    /// - Parameters:
    ///   - error: What the handler says went wrong.
    ///   - ticks: Virtual time until the answer.
    public static func retryableFailure(_ error: any Error, after ticks: TestTime = 0) -> Self {
        Self(answer: .outcome(.retryableFailure(error)), delay: ticks)
    }

    /// The server refuses the write for good with `error`, `ticks` after the send.
    ///
    /// - Parameters:
    ///   - error: The rejection.
    ///   - ticks: Virtual time until the answer.
    public static func rejected(_ error: any Error, after ticks: TestTime = 0) -> Self {
        Self(answer: .outcome(.rejected(error)), delay: ticks)
    }

    /// The server refuses the write because the data changed elsewhere (`error`, a 409 say),
    /// `ticks` after the send: the kind's ``/Teller/OutboxConflictPolicy`` settles it.
    ///
    /// - Parameters:
    ///   - error: The conflict.
    ///   - ticks: Virtual time until the answer.
    public static func conflict(_ error: any Error, after ticks: TestTime = 0) -> Self {
        Self(answer: .outcome(.conflict(error)), delay: ticks)
    }

    /// The handler's `Single` fails with `error` (which the outbox treats as a retryable
    /// failure), `ticks` after the send.
    ///
    /// - Parameters:
    ///   - error: The `Single`'s error.
    ///   - ticks: Virtual time until the answer.
    public static func failing(_ error: any Error, after ticks: TestTime = 0) -> Self {
        Self(answer: .failure(error), delay: ticks)
    }

    /// The handler never answers: the ``/Teller/Teller/fetchTimeout`` ends the send, if set.
    public static let never = Self(answer: .never, delay: 0)

    /// The `Single` a handler returns for this answer, timed on `scheduler` when given.
    func single(on scheduler: TestScheduler?) -> Single<OutboxSendOutcome> {
        switch answer {
        case .never:
            return .never()
        case .outcome(let outcome):
            guard let scheduler, delay > 0 else { return .just(outcome) }
            return scheduler.createColdObservable([.next(delay, outcome), .completed(delay)]).asSingle()
        case .failure(let error):
            guard let scheduler, delay > 0 else { return .error(error) }
            return scheduler.createColdObservable([Recorded<Event<OutboxSendOutcome>>.error(delay, error)]).asSingle()
        }
    }
}
