/// An observable that holds a reference on a ``RefCountDisposable`` for as long as each of its
/// subscriptions lasts, so a shared upstream subscription (the source of `groupBy` or
/// `window`) stays alive while anyone still observes one of the groups or windows, even after
/// the outer subscription was disposed.
final class AddRef<Element: Sendable>: Observable<Element>, @unchecked Sendable {
    // @unchecked: immutable.
    private let source: Observable<Element>
    private let refCount: RefCountDisposable

    init(source: Observable<Element>, refCount: RefCountDisposable) {
        self.source = source
        self.refCount = refCount
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        let release = refCount.retain()
        let subscription = source.subscribe(observer)
        return Disposables.create(release, subscription)
    }
}
