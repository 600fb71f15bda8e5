import Dispatch
import Synchronization
@_spi(TellerInternals) import TellerRx
import Testing

/// `share`, `refCount` and `connect` used from many threads at once. These assert invariants,
/// never timings, and are meant to run under ThreadSanitizer too.
@Suite struct ShareConcurrencyTests {
    static let scopes: [(Int, SubjectLifetimeScope)] = [(0, .whileConnected), (1, .whileConnected), (3, .forever)]

    @Test(arguments: scopes)
    func subscribingAndDisposingFromManyThreadsSubscribesTheSourceAtMostOnceAtATime(
        replay: Int,
        scope: SubjectLifetimeScope
    ) {
        let source = CountingSource()
        let shared = source.observable.share(replay: replay, scope: scope)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            for round in 0..<500 {
                // Mostly one at a time, so the count keeps crossing 0 <-> 1 where connecting
                // and disconnecting race; sometimes two, so it also goes 1 <-> 2.
                let first = shared.subscribe()
                if (index + round) % 4 == 0 {
                    let second = shared.subscribe()
                    first.dispose()
                    second.dispose()
                } else {
                    first.dispose()
                }
            }
        }
        #expect(source.mostLiveAtOnce == 1)
        #expect(source.liveSubscriptions == 0)
        #expect(source.subscriptions == source.disposals)
        #expect(source.subscriptions >= 1)
    }

    @Test func refCountFromManyThreadsConnectsTheSourceAtMostOnceAtATime() {
        let source = CountingSource()
        let shared = source.observable.publish().refCount()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<300 {
                let first = shared.subscribe()
                let second = shared.subscribe()
                first.dispose()
                second.dispose()
            }
        }
        #expect(source.mostLiveAtOnce == 1)
        #expect(source.liveSubscriptions == 0)
        #expect(source.subscriptions == source.disposals)
    }

    @Test func connectingFromManyThreadsSubscribesTheSourceOnce() {
        let source = CountingSource()
        let published = source.observable.publish()
        let connections = Locked<[any Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let connection = published.connect()
            connections.withLock { $0.append(connection) }
        }
        #expect(source.subscriptions == 1)
        for connection in connections.value { connection.dispose() }
        #expect(source.liveSubscriptions == 0)
    }

    @Test(arguments: scopes)
    func subscribersJoiningWhileTheSourceEmitsSeeAnUnbrokenOrderedRunWithoutOverlap(
        replay: Int,
        scope: SubjectLifetimeScope
    ) {
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: replay, scope: scope)
        let keepConnected = shared.subscribe()
        let observers = Locked<[RecordingObserver<Int>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            if index == 0 {
                for value in 0..<5_000 { subject.onNext(value) }
                return
            }
            for round in 0..<100 {
                let observer = RecordingObserver<Int>()
                let subscription = shared.subscribe(observer)
                observers.withLock { $0.append(observer) }
                if round % 2 == 0 { subscription.dispose() }
            }
        }
        keepConnected.dispose()
        for observer in observers.value {
            let elements = observer.elements
            #expect(observer.overlaps == 0)
            #expect(zip(elements, elements.dropFirst()).allSatisfy { $1 == $0 + 1 }, "\(elements.prefix(20))")
            #expect(elements.count <= 5_000)
        }
    }

    @Test func sourceEndingWhileSubscribersJoinGivesEachOneOrderlyRunAndOneTerminalEvent() {
        for _ in 0..<20 {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 2, scope: .forever)
            let observers = Locked<[RecordingObserver<Int>]>([])
            DispatchQueue.concurrentPerform(iterations: 3) { index in
                if index == 0 {
                    for value in 0..<200 { subject.onNext(value) }
                    subject.onCompleted()
                    return
                }
                for _ in 0..<50 {
                    let observer = RecordingObserver<Int>()
                    _ = shared.subscribe(observer)
                    observers.withLock { $0.append(observer) }
                }
            }
            for observer in observers.value {
                let events = observer.events
                let elements = observer.elements
                #expect(observer.overlaps == 0)
                #expect(zip(elements, elements.dropFirst()).allSatisfy { $1 == $0 + 1 })
                // Every subscriber of a forever-shared source that completed gets completion,
                // exactly once, last.
                #expect(events.filter(\.isStopEvent).count == 1)
                #expect(events.last?.isCompleted == true)
            }
        }
    }
}
