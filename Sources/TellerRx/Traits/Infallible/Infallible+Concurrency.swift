extension InfallibleType {
    /// The elements of this infallible as an `AsyncSequence` that cannot throw, for
    /// `for await` loops (RxSwift gives an `AsyncStream`).
    ///
    /// It behaves like ``ObservableConvertibleType/values``: each loop subscribes when it
    /// starts, buffers the elements it has not consumed yet, and ends when the infallible
    /// completes, when the loop is left, or when the iterating task is cancelled. An error
    /// (which an infallible never sends) ends the loop too, and is reported in debug builds.
    ///
    /// ```swift
    /// for await name in names.values {
    ///     print(name)
    /// }
    /// ```
    public var values: InfallibleValues<Element> {
        InfallibleValues(base: asObservable().values)
    }
}

/// The elements of an ``Infallible`` as a non-throwing `AsyncSequence`: see
/// ``InfallibleType/values``.
public struct InfallibleValues<Element: Sendable>: AsyncSequence, Sendable {
    /// The iteration never throws.
    public typealias Failure = Never

    private let base: ObservableValues<Element>

    init(base: ObservableValues<Element>) {
        self.base = base
    }

    /// Subscribes to the infallible and returns an iterator over its elements.
    ///
    /// - Returns: An iterator that owns the subscription; dropping it disposes the subscription.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator())
    }

    /// Iterates the buffered elements of one subscription.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: ObservableValues<Element>.AsyncIterator

        fileprivate init(base: ObservableValues<Element>.AsyncIterator) {
            self.base = base
        }

        /// The next element, waiting for it if none is buffered.
        ///
        /// - Returns: The next element, or `nil` once the infallible has completed or the task
        ///   has been cancelled.
        public mutating func next() async -> Element? {
            do {
                return try await base.next()
            } catch {
                reportMisuse("An Infallible sent an error, which it must never do: \(error)")
                return nil
            }
        }

        /// The next element, waiting for it on `actor` if none is buffered.
        ///
        /// - Parameter actor: The caller's actor, so the wait needs no hop to another executor.
        /// - Returns: The next element, or `nil` once the infallible has completed or the task
        ///   has been cancelled.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                reportMisuse("An Infallible sent an error, which it must never do: \(error)")
                return nil
            }
        }
    }
}
