extension ObservableType {
    /// A connectable observable that shares one subscription to this sequence through a
    /// ``ReplaySubject`` keeping the latest `bufferSize` elements: each subscriber first gets
    /// those, then every later event.
    ///
    /// Nothing is subscribed until ``ConnectableObservable/connect()``. As in RxSwift 6 (which
    /// builds it with `multicast(makeSubject:)`), each connection gets a new subject: when a
    /// connection is disposed or the source terminates, its buffer goes with it, and observers
    /// that subscribe afterwards are served by the next connection's subject. Events are
    /// delivered on the thread the source emits on.
    ///
    /// ```swift
    /// let source = PublishSubject<Int>()
    /// let replayed = source.replay(1)
    /// let connection = replayed.connect()
    /// source.onNext(1)
    /// connection.dispose()
    /// _ = replayed.subscribe(onNext: { print($0) })  // prints nothing: 1 went with that connection
    /// _ = replayed.connect()
    /// source.onNext(2)                                // prints 2
    /// ```
    ///
    /// - Parameter bufferSize: How many of the latest elements to replay.
    /// - Returns: A connectable observable.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) })
    }

    /// Like ``replay(_:)``, but replays every element the current connection has received.
    ///
    /// Each connection gets a new subject, so a new connection starts with an empty buffer.
    ///
    /// - Returns: A connectable observable.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.createUnbounded() })
    }
}
