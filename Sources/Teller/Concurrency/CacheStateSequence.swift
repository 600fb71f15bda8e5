import TellerRx

/// A repository's states as an `AsyncSequence` that never throws: see
/// ``TellerRepositoryProtocol/states``.
///
/// Each iteration observes the repository from the moment its iterator is made (when a
/// `for await` loop starts) until it ends, and buffers the states its loop has not taken yet.
public struct CacheStateSequence<Cache: Sendable>: AsyncSequence, Sendable {
    /// A state of the repository's cache.
    public typealias Element = CacheState<Cache>
    /// The iteration never throws: it ends instead.
    public typealias Failure = Never

    private let source: Observable<CacheState<Cache>>

    init(_ source: Observable<CacheState<Cache>>) {
        self.source = source
    }

    /// Starts observing the repository and returns an iterator over its states.
    ///
    /// - Returns: An iterator that owns the observation; dropping it stops observing.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: source.values.makeAsyncIterator())
    }

    /// Iterates the states of one observation.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var base: ObservableValues<CacheState<Cache>>.AsyncIterator

        fileprivate init(base: ObservableValues<CacheState<Cache>>.AsyncIterator) {
            self.base = base
        }

        /// The next state, waiting for it if none is buffered.
        ///
        /// - Returns: The next state, or `nil` once the iteration has ended: the task was
        ///   cancelled (and the states delivered before were taken), the repository was
        ///   released, or its observable ended.
        public mutating func next() async -> CacheState<Cache>? {
            await next(isolation: nil)
        }

        /// The next state, waiting for it on `actor` if none is buffered.
        ///
        /// - Parameter actor: The caller's actor, so the wait needs no hop to another executor.
        /// - Returns: The next state, or `nil` once the iteration has ended (see ``next()``).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> CacheState<Cache>? {
            // A repository's `observe()` never fails, so what is thrown here is the task's
            // `CancellationError` (or the error of a stand-in such as a mock): either ends the loop.
            do {
                return try await base.next(isolation: actor)
            } catch {
                return nil
            }
        }
    }
}
