// RxSwift 6's object-capturing `subscribe(with:…)` for the traits: `object` is held weakly and
// the closures are skipped once it is gone. Only the closures given are wrapped, so a missing
// error handler still reports the error in debug builds.

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// Subscribes closures that receive `object` along with the outcome, without keeping
    /// `object` alive.
    ///
    /// `object` is held weakly; each closure is called with it only while it is alive, and
    /// skipped once it has been deallocated. The closures run on the thread that delivers the
    /// outcome, as in ``subscribe(onSuccess:onFailure:onDisposed:)``. `Object` must be
    /// `Sendable`, because the closures may run on any thread.
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures, held weakly.
    ///   - onSuccess: Called with the element while `object` is alive.
    ///   - onFailure: Called with the error while `object` is alive.
    ///   - onDisposed: Called once when the subscription ends, if `object` is alive then.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onSuccess: (@Sendable (Object, Element) -> Void)? = nil,
        onFailure: (@Sendable (Object, any Error) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onSuccess: weaklyBound(object, onSuccess),
            onFailure: weaklyBound(object, onFailure),
            onDisposed: weaklyBound(object, onDisposed)
        )
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// Subscribes closures that receive `object` along with the outcome, without keeping
    /// `object` alive.
    ///
    /// `object` is held weakly; each closure is called with it only while it is alive, and
    /// skipped once it has been deallocated. The closures run on the thread that delivers the
    /// outcome, as in ``subscribe(onSuccess:onError:onCompleted:onDisposed:)``. `Object` must be
    /// `Sendable`, because the closures may run on any thread.
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures, held weakly.
    ///   - onSuccess: Called with the element while `object` is alive.
    ///   - onError: Called with the error while `object` is alive.
    ///   - onCompleted: Called when the maybe ends empty while `object` is alive.
    ///   - onDisposed: Called once when the subscription ends, if `object` is alive then.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onSuccess: (@Sendable (Object, Element) -> Void)? = nil,
        onError: (@Sendable (Object, any Error) -> Void)? = nil,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onSuccess: weaklyBound(object, onSuccess),
            onError: weaklyBound(object, onError),
            onCompleted: weaklyBound(object, onCompleted),
            onDisposed: weaklyBound(object, onDisposed)
        )
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Never {
    /// Subscribes closures that receive `object` along with the outcome, without keeping
    /// `object` alive.
    ///
    /// `object` is held weakly; each closure is called with it only while it is alive, and
    /// skipped once it has been deallocated. The closures run on the thread that delivers the
    /// outcome, as in ``subscribe(onCompleted:onError:onDisposed:)``. `Object` must be
    /// `Sendable`, because the closures may run on any thread.
    ///
    /// - Parameters:
    ///   - object: The object passed to the closures, held weakly.
    ///   - onCompleted: Called when the work succeeds while `object` is alive.
    ///   - onError: Called with the error while `object` is alive.
    ///   - onDisposed: Called once when the subscription ends, if `object` is alive then.
    /// - Returns: A disposable that cancels the subscription.
    public func subscribe<Object: AnyObject & Sendable>(
        with object: Object,
        onCompleted: (@Sendable (Object) -> Void)? = nil,
        onError: (@Sendable (Object, any Error) -> Void)? = nil,
        onDisposed: (@Sendable (Object) -> Void)? = nil
    ) -> any Disposable {
        subscribe(
            onCompleted: weaklyBound(object, onCompleted),
            onError: weaklyBound(object, onError),
            onDisposed: weaklyBound(object, onDisposed)
        )
    }
}
