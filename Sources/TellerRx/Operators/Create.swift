extension ObservableType {
    /// Creates an observable from a subscribe function.
    ///
    /// `subscribe` runs once per subscription, on the subscribing thread. Send events to the
    /// given observer from any thread, one at a time; return a disposable that cancels the
    /// work. TellerRx enforces the event grammar: anything sent after `error` or `completed`
    /// is dropped (and reported in debug builds), and a terminal event disposes the returned
    /// disposable.
    ///
    /// ```swift
    /// let numbers = Observable<Int>.create { observer in
    ///     observer.onNext(1)
    ///     observer.onCompleted()
    ///     return Disposables.create()
    /// }
    /// ```
    ///
    /// - Parameter subscribe: Starts the work for one subscriber.
    /// - Returns: An observable that runs `subscribe` for each subscriber.
    @inlinable
    public static func create(
        _ subscribe: @escaping (AnyObserver<Element>) -> any Disposable
    ) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

// Internal and `@usableFromInline`, with an `@inlinable` operator method, so the call site
// builds it with its concrete types: unspecialized generic code would look up the producer's
// type metadata at run time on every call.
@usableFromInline
final class AnonymousObservable<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: `subscribeHandler` is immutable; it may capture non-Sendable state by design
    // (README data sources do), and is only called on the subscribing thread.
    @usableFromInline
    typealias SubscribeHandler = (AnyObserver<Element>) -> any Disposable

    let subscribeHandler: SubscribeHandler

    @usableFromInline
    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        let sink = AnonymousObservableSink(observer: observer, downstream: downstream)
        sink.setSubscription(subscribeHandler(AnyObserver(sink)))
        return sink
    }
}

/// Enforces the event grammar with the slot's stopped bit: nothing after a terminal event.
private final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType,
    @unchecked Sendable
{
    // @unchecked: nothing beyond `Sink`.
    typealias Element = Observer.Element

    @inline(__always)
    func onNext(_ element: Element) {
        if isDisposed {
            if isMarkedStopped {
                reportMisuse("Observable.create sent an element after the sequence ended; it was dropped.")
            }
            return
        }
        observer.onNext(element)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            let previous = markStopped()
            if previous.wasStopped {
                reportMisuse("Observable.create sent a second terminal event; it was dropped.")
                return
            }
            if !previous.wasDisposed {
                observer.on(event)
            }
            dispose()
        }
    }
}
