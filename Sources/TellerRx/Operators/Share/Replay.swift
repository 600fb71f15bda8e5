extension ObservableType {
    /// A connectable observable that shares one subscription to this sequence through a
    /// ``ReplaySubject`` keeping the latest `bufferSize` elements: each subscriber first gets
    /// those, then every later event.
    ///
    /// Nothing is subscribed until ``ConnectableObservable/connect()``. As in RxSwift, one
    /// subject serves every connection, so after the source ends, new subscribers get the
    /// buffer and the terminal event. Events are delivered on the thread the source emits on.
    ///
    /// - Parameter bufferSize: How many of the latest elements to replay.
    /// - Returns: A connectable observable.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(ReplaySubject<Element>.create(bufferSize: bufferSize))
    }

    /// Like ``replay(_:)``, but replays every element the source ever sent.
    ///
    /// - Returns: A connectable observable.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(ReplaySubject<Element>.createUnbounded())
    }
}
