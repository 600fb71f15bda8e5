/// A resource that can be released, such as a subscription or scheduled work.
///
/// `dispose()` may be called from any thread, any number of times; only the first call does
/// anything. After it returns on a thread, that subscription delivers nothing more on that
/// thread.
public protocol Disposable: Sendable {
    /// Releases the resource: stops delivery and frees what the subscription holds.
    func dispose()
}

/// A disposable that can tell whether it has been disposed.
public protocol Cancelable: Disposable {
    /// Whether `dispose()` has been called.
    var isDisposed: Bool { get }
}
