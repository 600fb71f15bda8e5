// The scheduler and time operators of the traits: thin wrappers over the observable operators,
// which keep the trait grammar (they move or time events, never add or drop an element).

extension PrimitiveSequence {
    /// Delivers the outcome of this trait on `scheduler`.
    ///
    /// Behaves as ``ObservableType/observe(on:)``: only the delivery of the outcome moves; use
    /// ``subscribe(on:)`` to move the work done when subscribing. As in RxSwift, where a
    /// success is an element followed by a completion and each event is scheduled on its own,
    /// the completion after a success is delivered in a later run on `scheduler` than the
    /// element (one tick later on a `TestScheduler`: `next @ 201, completed @ 202` for a
    /// `Single.just` subscribed at 200).
    ///
    /// ```swift
    /// fetchUser()                                 // a Single that succeeds on a background queue
    ///     .observe(on: MainScheduler.instance)
    ///     .subscribe(onSuccess: { label.text = $0.name })  // runs on the main thread
    /// ```
    ///
    /// - Parameter scheduler: Where the observer receives the outcome.
    /// - Returns: The same trait, delivered on `scheduler`.
    public func observe(on scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler, completionInItsOwnRun: true))
    }

    /// The older spelling of ``observe(on:)``, kept so code written for RxSwift 5 (and the
    /// Teller README) compiles unchanged. Identical behaviour.
    ///
    /// - Parameter scheduler: Where the observer receives the outcome.
    /// - Returns: The same trait, delivered on `scheduler`.
    public func observeOn(_ scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        observe(on: scheduler)
    }

    /// Subscribes to this trait, and later disposes that subscription, on `scheduler`.
    ///
    /// Behaves as ``ObservableType/subscribe(on:)``: the work the trait does when subscribed
    /// (a `create` closure, a request) runs on `scheduler`; the outcome is delivered wherever
    /// the trait produces it. Disposing before the scheduled subscription ran cancels it.
    ///
    /// - Parameter scheduler: Where the trait is subscribed and unsubscribed.
    /// - Returns: The same trait, subscribed on `scheduler`.
    public func subscribe(on scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }

    /// The older spelling of ``subscribe(on:)``, kept so code written for RxSwift 5 (and the
    /// Teller README) compiles unchanged. Identical behaviour.
    ///
    /// - Parameter scheduler: Where the trait is subscribed and unsubscribed.
    /// - Returns: The same trait, subscribed on `scheduler`.
    public func subscribeOn(_ scheduler: any ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        subscribe(on: scheduler)
    }

    /// Delivers a success (or an empty completion) `dueTime` later, on `scheduler`; an error is
    /// not delayed.
    ///
    /// Behaves as ``ObservableType/delay(_:scheduler:)``: the element is sent on `scheduler`
    /// `dueTime` later, and the completion that follows it in a later run on `scheduler` (as in
    /// RxSwift, which sends one event per run: on a `TestScheduler`, `Single.just(1)` delayed
    /// by 2 from 200 gives `next @ 202, completed @ 203`). An error is sent at once, on the
    /// trait's thread, and drops an element still waiting.
    ///
    /// - Parameters:
    ///   - dueTime: How long the outcome is held back.
    ///   - scheduler: Runs the timer and sends the delayed outcome.
    /// - Returns: The same trait, shifted in time.
    public func delay(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler, completionInItsOwnRun: true))
    }

    /// Subscribes to this trait `dueTime` after `subscribe` is called, on `scheduler`.
    ///
    /// Behaves as ``ObservableType/delaySubscription(_:scheduler:)``: the outcome is delivered
    /// wherever the trait produces it; disposing before the delay has passed means the trait is
    /// never subscribed.
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait before subscribing.
    ///   - scheduler: Runs the timer and the subscription.
    /// - Returns: The same trait, subscribed later.
    public func delaySubscription(
        _ dueTime: RxTimeInterval,
        scheduler: any SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }

    /// Fails with ``RxError/timeout`` if this trait has no outcome within `dueTime` of
    /// subscription.
    ///
    /// Behaves as ``ObservableType/timeout(_:scheduler:)``: when the timer ends first, the
    /// trait's subscription is disposed and the error is sent on `scheduler`; an outcome in time
    /// passes through on the trait's thread.
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for the outcome.
    ///   - scheduler: Runs the timer and sends the timeout error.
    /// - Returns: The same trait, failing with `RxError.timeout` if it takes too long.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` if this trait has no outcome within `dueTime` of subscription.
    ///
    /// Behaves as ``ObservableType/timeout(_:other:scheduler:)``: when the timer ends first,
    /// the trait's subscription is disposed and `other` is subscribed on `scheduler`; the result
    /// then has `other`'s outcome.
    ///
    /// - Parameters:
    ///   - dueTime: The longest wait for the outcome.
    ///   - other: The trait to fall back on after a timeout.
    ///   - scheduler: Runs the timer and subscribes to `other`.
    /// - Returns: This trait's outcome, or `other`'s after a timeout.
    public func timeout(
        _ dueTime: RxTimeInterval,
        other: PrimitiveSequence<Trait, Element>,
        scheduler: any SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.source, scheduler: scheduler))
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// A trait that succeeds with `0` once `dueTime` has passed after subscription.
    ///
    /// The element (and the completion that follows it) is sent on `scheduler`. Disposing
    /// before the time has passed cancels the timer.
    ///
    /// ```swift
    /// Single<Int>.timer(.seconds(1), scheduler: MainScheduler.instance)
    ///     .subscribe(onSuccess: { _ in print("a second later") })
    /// ```
    ///
    /// - Parameters:
    ///   - dueTime: How long after subscription to succeed.
    ///   - scheduler: Runs the timer and sends the element.
    /// - Returns: A trait of `0`, after `dueTime`.
    public static func timer(
        _ dueTime: RxTimeInterval,
        scheduler: any SchedulerType
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}
