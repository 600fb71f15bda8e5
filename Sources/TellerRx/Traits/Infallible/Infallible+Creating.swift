// The ways to make an infallible without a source that could fail; each wraps the observable
// of the same name.

extension Infallible {
    /// An infallible that sends `element` and completes, at once, on the subscribing thread.
    ///
    /// - Parameter element: The only element.
    /// - Returns: A one-element infallible.
    public static func just(_ element: Element) -> Infallible<Element> {
        Infallible(Observable.just(element))
    }

    /// An infallible that sends `element` and completes, on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The only element.
    ///   - scheduler: Where the element and the completion are sent.
    /// - Returns: A one-element infallible.
    public static func just(_ element: Element, scheduler: any ImmediateSchedulerType) -> Infallible<Element> {
        Infallible(Observable.just(element, scheduler: scheduler))
    }

    /// An infallible that never sends anything.
    ///
    /// - Returns: A silent infallible; its subscriptions hold nothing.
    public static func never() -> Infallible<Element> {
        Infallible(Observable.never())
    }

    /// An infallible that completes at once, on the subscribing thread.
    ///
    /// - Returns: An empty infallible.
    public static func empty() -> Infallible<Element> {
        Infallible(Observable.empty())
    }

    /// An infallible that calls `observableFactory` for every subscriber and subscribes to the
    /// infallible it returns.
    ///
    /// `observableFactory` runs on the subscribing thread, once per subscription. As in
    /// RxSwift it may throw; the subscriber then receives that error (which breaks the
    /// infallible's guarantee, see ``Infallible``).
    ///
    /// - Parameter observableFactory: Makes the sequence for one subscriber.
    /// - Returns: An infallible whose subscribers each get a sequence made for them.
    public static func deferred(
        _ observableFactory: @escaping () throws -> Infallible<Element>
    ) -> Infallible<Element> {
        Infallible(Observable.deferred { try observableFactory().asObservable() })
    }

    /// An infallible that sends `elements` in order, then completes.
    ///
    /// - Parameters:
    ///   - elements: The elements to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: A finite infallible of `elements`.
    public static func of(
        _ elements: Element...,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(Observable.from(elements, scheduler: scheduler))
    }

    /// An infallible that sends the elements of `array` in order, then completes.
    ///
    /// - Parameters:
    ///   - array: The elements to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: A finite infallible of the array's elements.
    public static func from(
        _ array: [Element],
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(Observable.from(array, scheduler: scheduler))
    }

    /// An infallible that sends the elements of `sequence` in order, then completes.
    ///
    /// - Parameters:
    ///   - sequence: The elements to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: An infallible of the sequence's elements.
    public static func from<Source: Sequence & Sendable>(
        _ sequence: Source,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> where Source.Element == Element {
        Infallible(Observable.from(sequence, scheduler: scheduler))
    }

    /// An infallible that sends `element` again and again, without end.
    ///
    /// - Parameters:
    ///   - element: The element to send.
    ///   - scheduler: Where each element is sent.
    /// - Returns: An endless infallible; limit it with `take(_:)`.
    public static func repeatElement(
        _ element: Element,
        scheduler: any ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Infallible<Element> {
        Infallible(Observable.repeatElement(element, scheduler: scheduler))
    }
}

extension Infallible where Element: FixedWidthInteger {
    /// An infallible that sends 0, 1, 2, … every `period`, on `scheduler`, without end.
    ///
    /// - Parameters:
    ///   - period: The time between elements, and before the first one.
    ///   - scheduler: Runs the timer and sends the elements.
    /// - Returns: An endless infallible of increasing integers.
    public static func interval(_ period: RxTimeInterval, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(Observable.interval(period, scheduler: scheduler))
    }

    /// An infallible that sends 0 after `dueTime`, then (with a `period`) 1, 2, … every
    /// `period`; without a `period` it completes right after the 0. Events are sent on
    /// `scheduler`.
    ///
    /// - Parameters:
    ///   - dueTime: The time before the first element.
    ///   - period: The time between later elements, or `nil` for a single element.
    ///   - scheduler: Runs the timer and sends the events.
    /// - Returns: A one-element infallible, or an endless one with a `period`.
    public static func timer(
        _ dueTime: RxTimeInterval,
        period: RxTimeInterval? = nil,
        scheduler: any SchedulerType
    ) -> Infallible<Element> {
        Infallible(Observable.timer(dueTime, period: period, scheduler: scheduler))
    }
}
