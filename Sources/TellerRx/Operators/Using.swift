extension ObservableType {
    /// Creates a resource for each subscriber and a sequence that uses it; the resource is
    /// disposed when the sequence ends or the subscription is disposed.
    ///
    /// Both factories run on the subscribing thread, once per subscription; like `create`'s
    /// closure, they are not required to be `@Sendable`, so they may capture non-`Sendable`
    /// values. The resource is disposed after the sequence's subscription, on the thread that
    /// ends it (after the terminal event has been delivered, or on the disposing thread). If
    /// `resourceFactory` throws, the subscriber receives the error; if `observableFactory`
    /// throws, it receives the error and the resource is disposed.
    ///
    /// - Parameters:
    ///   - resourceFactory: Makes the resource.
    ///   - observableFactory: Makes the sequence that uses the resource.
    /// - Returns: An observable that owns a resource for the lifetime of each subscription.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        UsingProducer(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

private final class UsingProducer<Element: Sendable, Resource: Disposable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: immutable; the factories may capture non-Sendable state by design and are
    // only called on the subscribing thread.
    typealias ResourceFactory = () throws -> Resource
    typealias ObservableFactory = (Resource) throws -> Observable<Element>

    let resourceFactory: ResourceFactory
    let observableFactory: ObservableFactory

    init(resourceFactory: @escaping ResourceFactory, observableFactory: @escaping ObservableFactory) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
    }

    override func run<Observer: ObserverType>(
        _ observer: Observer,
        downstream: SubscriptionSlot?
    ) -> any Disposable where Observer.Element == Element {
        // A plain sink forwards, and after a terminal event disposes its upstream: the
        // source's subscription, then the resource.
        let sink = Sink(observer: observer, downstream: downstream)
        let resource: Resource
        do {
            resource = try resourceFactory()
        } catch {
            sink.forwardTerminal(.error(error))
            return sink
        }
        do {
            let source = try observableFactory(resource)
            // Set before subscribing, so the sink is wired to the source while it sends.
            let upstream = SubscriptionSlot()
            sink.setSubscription(Disposables.create(upstream, resource))
            source.subscribe(sink.forwarder(), upstreamOf: upstream)
            return sink
        } catch {
            sink.forwardOn(.error(error))
            sink.dispose()
            sink.setSubscription(resource)
            return sink
        }
    }
}
