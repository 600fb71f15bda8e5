import Foundation
import TellerRx

extension ObservableConvertibleType {
    /// Wraps this sequence so tests can wait for its elements synchronously, RxBlocking style.
    ///
    /// ```swift
    /// let first = try Observable.of(1, 2, 3).toBlocking().first()   // 1
    /// ```
    ///
    /// Nothing is subscribed until one of the returned value's methods is called.
    ///
    /// - Parameter timeout: Seconds to wait before giving up with `RxError.timeout`;
    ///   `nil` waits forever.
    /// - Returns: A ``TellerTesting/BlockingObservable`` over this sequence.
    public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
        BlockingObservable(source: asObservable(), timeout: timeout)
    }
}

/// A sequence whose elements a test waits for synchronously, made with
/// `toBlocking(timeout:)`.
///
/// Each method subscribes once, blocks the calling thread until it has its answer, then
/// disposes the subscription. On the main thread (an XCTest method) it keeps the main run loop
/// turning while it waits, so work the sequence schedules on the main queue (`MainScheduler`,
/// `DispatchQueue.main.async`) still runs; on any other thread it sleeps on a semaphore.
/// Events may be delivered on any thread.
///
/// Two places cannot make progress while blocked, so prefer awaiting `values` or `value` there:
/// the main queue when it is not driven by the main run loop (Swift Testing runs `@MainActor`
/// tests that way on Linux; a warning is printed after 5 s of waiting without a timeout), and
/// Swift concurrency threads when the sequence itself needs a `Task` to produce its elements
/// (blocking the small cooperative pool can starve that task).
public struct BlockingObservable<Element: Sendable>: Sendable {
    let source: Observable<Element>
    let timeout: TimeInterval?

    /// Waits for the sequence to end and returns all its elements.
    ///
    /// - Returns: Every element, in order.
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func toArray() throws -> [Element] {
        try materializeResult(maximumCount: nil).elementsOrThrow()
    }

    /// Waits for the first element, then disposes the subscription.
    ///
    /// - Returns: The first element, or `nil` if the sequence completes empty.
    /// - Throws: The sequence's error if it fails first, or `RxError.timeout`.
    public func first() throws -> Element? {
        try materializeResult(maximumCount: 1).elementsOrThrow().first
    }

    /// Waits for the sequence to end and returns its last element.
    ///
    /// - Returns: The last element, or `nil` if the sequence completes empty.
    /// - Throws: The sequence's error, or `RxError.timeout`.
    public func last() throws -> Element? {
        try materializeResult(maximumCount: nil).elementsOrThrow().last
    }

    /// Waits for the sequence's only element. Stops as soon as a second element arrives.
    ///
    /// - Returns: The only element.
    /// - Throws: `RxError.noElements` if the sequence completes empty,
    ///   `RxError.moreThanOneElement` if it sends two, its own error, or `RxError.timeout`.
    public func single() throws -> Element {
        try single { _ in true }
    }

    /// Waits for the only element that satisfies `predicate`. Stops as soon as a second
    /// matching element arrives.
    ///
    /// - Parameter predicate: Runs on the delivering thread for each element until the answer
    ///   is known (a second match, or an error it throws, which ends the wait and is
    ///   rethrown); it is not called for elements that arrive after that.
    /// - Returns: The only matching element.
    /// - Throws: `RxError.noElements` if no element matches, `RxError.moreThanOneElement`
    ///   if two do, the sequence's or the predicate's error, or `RxError.timeout`.
    public func single(_ predicate: @escaping @Sendable (Element) throws -> Bool) throws -> Element {
        let elements = try materializeResult(maximumCount: 2, predicate: predicate).elementsOrThrow()
        guard elements.count <= 1 else { throw RxError.moreThanOneElement }
        guard let element = elements.first else { throw RxError.noElements }
        return element
    }

    /// Waits for the sequence to end and returns how it ended, with the elements it sent.
    ///
    /// - Returns: `.completed(elements:)`, or `.failed(elements:error:)` with the elements
    ///   before the error (a timeout is reported as a failure with `RxError.timeout`).
    public func materialize() -> MaterializedSequenceResult<Element> {
        materializeResult(maximumCount: nil)
    }

    private func materializeResult(
        maximumCount: Int?,
        predicate: (@Sendable (Element) throws -> Bool)? = nil
    ) -> MaterializedSequenceResult<Element> {
        let collector = BlockingCollector<Element>(maximumCount: maximumCount, predicate: predicate)
        collector.subscribe(to: source)
        collector.wait(timeout: timeout)
        return collector.result
    }
}

/// How a sequence waited on with ``BlockingObservable/materialize()`` ended.
public enum MaterializedSequenceResult<Element> {
    /// The sequence completed after sending `elements`.
    case completed(elements: [Element])
    /// The sequence failed with `error` after sending `elements`.
    case failed(elements: [Element], error: any Error)
}

extension MaterializedSequenceResult: Sendable where Element: Sendable {}

extension MaterializedSequenceResult {
    fileprivate func elementsOrThrow() throws -> [Element] {
        switch self {
        case .completed(let elements): elements
        case .failed(_, let error): throw error
        }
    }
}
