import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct ObservableValuesTests {
    @Test func yieldsEveryElementThenFinishes() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            received.append(value)
        }
        #expect(received == [1, 2, 3])
    }

    @Test func emptySequenceFinishesAtOnce() async throws {
        var iterator = Observable<Int>.empty().values.makeAsyncIterator()
        #expect(try await iterator.next() == nil)
        #expect(try await iterator.next() == nil)
    }

    @Test func errorIsThrownAfterTheElementsBeforeIt() async {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            observer.onError(TestError(1))
            return Disposables.create()
        }
        var received: [Int] = []
        await #expect(throws: TestError(1)) {
            for try await value in source.values {
                received.append(value)
            }
        }
        #expect(received == [1, 2])
    }

    @Test func errorIsThrownOnceThenTheIteratorIsFinished() async throws {
        var iterator = Observable<Int>.error(TestError(2)).values.makeAsyncIterator()
        await #expect(throws: TestError(2)) { _ = try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func elementsSentBeforeTheFirstNextAreBuffered() async throws {
        let subject = PublishSubject<Int>()
        var iterator = subject.values.makeAsyncIterator()
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        #expect(try await iterator.next() == 1)
        #expect(try await iterator.next() == 2)
        #expect(try await iterator.next() == nil)
    }

    @Test func waitingNextReceivesAnElementSentLater() async throws {
        let subject = PublishSubject<Int>()
        let waiting = AsyncSignal()
        let source = Observable<Int>.create { observer in
            let subscription = subject.subscribe(observer)
            waiting.signal()
            return subscription
        }
        let consumer = Task {
            var received: [Int] = []
            for try await value in source.values { received.append(value) }
            return received
        }
        await waiting.wait()
        subject.onNext(5)
        subject.onNext(6)
        subject.onCompleted()
        #expect(try await consumer.value == [5, 6])
    }

    @Test func noElementIsLostWhenTheSourceOutrunsTheLoop() async throws {
        let count = 20_000
        let source = Observable<Int>.create { observer in
            DispatchQueue.global().async {
                for value in 0..<count { observer.onNext(value) }
                observer.onCompleted()
            }
            return Disposables.create()
        }
        var received: [Int] = []
        for try await value in source.values {
            received.append(value)
            if value % 1000 == 0 { await Task.yield() }
        }
        #expect(received == Array(0..<count))
    }

    @Test func concurrentEmittersLoseNothing() async throws {
        let subject = PublishSubject<Int>()
        var iterator = subject.values.makeAsyncIterator()
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                for value in 0..<500 { subject.onNext(worker * 1000 + value) }
            }
            subject.onCompleted()
        }
        var received: [Int] = []
        while let value = try await iterator.next() { received.append(value) }
        #expect(received.count == 4000)
        #expect(Set(received).count == 4000)
    }

    @Test func leavingTheLoopEarlyDisposesTheSubscription() async throws {
        let probe = DisposalProbe<Int>()
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return probe.observable.subscribe(observer)
        }
        for try await value in source.values {
            #expect(value == 1)
            break
        }
        #expect(probe.subscribeCount.value == 1)
        #expect(probe.disposeCount.value == 1)
    }

    @Test func cancellingTheTaskDisposesTheSubscriptionAndThrowsCancellation() async throws {
        // RxSwift's testThrowsCancellationErrorWithoutEvents.
        let probe = DisposalProbe<Int>()
        let subscribed = AsyncSignal()
        let source = Observable<Int>.create { observer in
            defer { subscribed.signal() }
            return probe.observable.subscribe(observer)
        }
        let consumer = Task {
            var received = 0
            for try await _ in source.values { received += 1 }
            return received
        }
        await subscribed.wait()
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
        #expect(probe.disposeCount.value == 1)
    }

    @Test func iteratingInAnAlreadyCancelledTaskThrowsCancellation() async throws {
        let probe = DisposalProbe<Int>()
        let consumer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = probe.observable.values.makeAsyncIterator()
            return try await iterator.next()
        }
        await #expect(throws: CancellationError.self) { try await consumer.value }
        #expect(probe.subscribeCount.value == 1)
        #expect(probe.disposeCount.value == 1)
    }

    @Test func cancellationKeepsTheElementsAlreadySentThenThrows() async throws {
        let source = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onNext(2)
            return Disposables.create()
        }
        let consumer = Task { () -> [String] in
            withUnsafeCurrentTask { $0?.cancel() }
            var log: [String] = []
            do {
                for try await value in source.values { log.append("\(value)") }
                log.append("ended")
            } catch {
                log.append("threw \(type(of: error))")
            }
            return log
        }
        #expect(await consumer.value == ["1", "2", "threw CancellationError"])
    }

    @Test func cancellationAfterTheSequenceEndedEndsTheLoopAsTheSequenceDid() async throws {
        // RxSwift's testNotThrowingCancellation: a sequence that already completed is not
        // turned into a cancellation; one that failed still throws its own error.
        let consumer = Task { () -> [String] in
            withUnsafeCurrentTask { $0?.cancel() }
            var log: [String] = []
            for try await value in Observable.of(1, 2, 3).values { log.append("\(value)") }
            log.append("ended")
            do {
                for try await value in Observable.of(4).concat(Observable<Int>.error(TestError(7))).values {
                    log.append("\(value)")
                }
            } catch {
                log.append("threw \(error)")
            }
            return log
        }
        #expect(try await consumer.value == ["1", "2", "3", "ended", "4", "threw \(TestError(7))"])
    }

    @Test func eachIterationSubscribesAgain() async throws {
        let subscriptions = Locked(0)
        let source = Observable<Int>.create { observer in
            subscriptions.increment()
            observer.onNext(subscriptions.value)
            observer.onCompleted()
            return Disposables.create()
        }
        let values = source.values
        var first: [Int] = []
        for try await value in values { first.append(value) }
        var second: [Int] = []
        for try await value in values { second.append(value) }
        #expect(first == [1])
        #expect(second == [2])
    }

    @MainActor @Test func iteratesOnTheMainActor() async throws {
        var received: [Int] = []
        for try await value in Single.just(7).values {
            MainActor.assertIsolated()
            received.append(value)
        }
        #expect(received == [7])
    }
}
