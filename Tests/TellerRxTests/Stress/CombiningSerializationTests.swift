import Dispatch
import TellerRx
import Testing

/// Real-thread tests: the sources of each multi-source operator are driven from different
/// threads at once, and the observer checks that no two events ever overlap. Run them under
/// ThreadSanitizer too: the observer's unsynchronized recording makes any overlap a race.
@Suite struct CombiningSerializationTests {
    static let threads = 4
    static let perThread = 2_000

    @Test func mergeSerializesSourcesEmittingOnDifferentThreads() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = OverlapCheckingObserver<Int>()
        let subscription = Observable.merge(subjects.map { $0.asObservable() }).subscribe(observer)
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { subjects[index].onNext(value) }
            subjects[index].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.count == Self.threads * Self.perThread)
        #expect(observer.terminalEvent?.isCompleted == true)
        subscription.dispose()
    }

    @Test func flatMapSerializesInnerSequencesEmittingOnDifferentThreads() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = outer.flatMap { inners[$0] }.subscribe(observer)
        for index in 0..<Self.threads { outer.onNext(index) }
        outer.onCompleted()
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { inners[index].onNext(value) }
            inners[index].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.count == Self.threads * Self.perThread)
        #expect(observer.terminalEvent?.isCompleted == true)
        subscription.dispose()
    }

    @Test func mergeWithMaxConcurrentSerializesAndRunsEveryInner() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Observable<Int>>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = outer.merge(maxConcurrent: 2).subscribe(observer)
        // Two run, two wait; the waiting ones start as the first two complete, on those threads.
        for inner in inners { outer.onNext(inner.asObservable()) }
        outer.onCompleted()
        concurrently(2) { index in
            for value in 0..<Self.perThread { inners[index].onNext(value) }
            inners[index].onCompleted()
        }
        concurrently(2) { index in
            for value in 0..<Self.perThread { inners[index + 2].onNext(value) }
            inners[index + 2].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.count == Self.threads * Self.perThread)
        subscription.dispose()
    }

    @Test func flatMapLatestSerializesSwitchingAgainstInnerEmissions() {
        let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let outer = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = outer.flatMapLatest { inners[$0] }.subscribe(observer)
        concurrently(Self.threads) { index in
            if index == 0 {
                // One thread keeps switching while the others emit on every inner.
                for step in 0..<Self.perThread { outer.onNext(step % Self.threads) }
            } else {
                for value in 0..<Self.perThread {
                    for inner in inners { inner.onNext(value) }
                }
            }
        }
        outer.onCompleted()
        for inner in inners { inner.onCompleted() }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.terminalEvent?.isCompleted == true)
        subscription.dispose()
    }

    @Test func concatDeliversSourcesThatEmitOnDifferentThreadsInOrder() {
        let sourceCount = 8
        let perSource = 500
        let sources = (0..<sourceCount).map { source in
            Observable<Int>.create { observer in
                DispatchQueue.global().async {
                    for value in 0..<perSource { observer.onNext(source * perSource + value) }
                    observer.onCompleted()
                }
                return Disposables.create()
            }
        }
        let observer = OverlapCheckingObserver<Int>()
        let subscription = Observable.concat(sources).subscribe(observer)
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements == Array(0..<sourceCount * perSource))
        subscription.dispose()
    }

    @Test func combineLatestSerializesSourcesEmittingOnDifferentThreads() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = OverlapCheckingObserver<Int>()
        let subscription = Observable.combineLatest(subjects[0], subjects[1], subjects[2], subjects[3]) {
            $0 + $1 + $2 + $3
        }
        .subscribe(observer)
        for subject in subjects { subject.onNext(0) }
        concurrently(Self.threads) { index in
            for value in 1...Self.perThread { subjects[index].onNext(value) }
            subjects[index].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        // One result per element once all have one; the last combines every last element.
        #expect(observer.elements.count == 1 + Self.threads * Self.perThread)
        #expect(observer.elements.last == Self.threads * Self.perThread)
        subscription.dispose()
    }

    @Test func combineLatestCollectionSerializesSourcesEmittingOnDifferentThreads() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = OverlapCheckingObserver<[Int]>()
        let subscription = Observable.combineLatest(subjects).subscribe(observer)
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { subjects[index].onNext(value) }
            subjects[index].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.last == Array(repeating: Self.perThread - 1, count: Self.threads))
        subscription.dispose()
    }

    @Test func zipSerializesAndPairsSourcesEmittingOnDifferentThreads() {
        let subjects = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let observer = OverlapCheckingObserver<Int>()
        let subscription = Observable.zip(subjects[0], subjects[1], subjects[2], subjects[3]) { $0 + $1 + $2 + $3 }
            .subscribe(observer)
        concurrently(Self.threads) { index in
            for value in 0..<Self.perThread { subjects[index].onNext(value) }
            subjects[index].onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements == (0..<Self.perThread).map { $0 * Self.threads })
        subscription.dispose()
    }

    @Test func withLatestFromSerializesBothSequences() {
        let first = PublishSubject<Int>()
        let second = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = first.withLatestFrom(second) { $0 + $1 }.subscribe(observer)
        second.onNext(0)
        concurrently(2) { index in
            for value in 0..<Self.perThread {
                if index == 0 { first.onNext(value) } else { second.onNext(value) }
            }
        }
        first.onCompleted()
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        #expect(observer.elements.count == Self.perThread)
        subscription.dispose()
    }

    @Test func ambForwardsExactlyOneSideWhenBothRace() {
        let left = PublishSubject<Int>()
        let right = PublishSubject<Int>()
        let observer = OverlapCheckingObserver<Int>()
        let subscription = left.amb(right).subscribe(observer)
        concurrently(2) { index in
            let subject = index == 0 ? left : right
            for value in 0..<Self.perThread { subject.onNext(index * 1_000_000 + value) }
            subject.onCompleted()
        }
        #expect(observer.waitForTerminal())
        #expect(observer.overlaps == 0)
        let winner = (observer.elements.first ?? 0) / 1_000_000
        #expect(observer.elements == (0..<Self.perThread).map { winner * 1_000_000 + $0 })
        subscription.dispose()
    }

    @Test func disposingWhileInnerSequencesEmitOnOtherThreadsIsSafe() {
        for _ in 0..<20 {
            let inners = (0..<Self.threads).map { _ in PublishSubject<Int>() }
            let outer = PublishSubject<Int>()
            let observer = OverlapCheckingObserver<Int>()
            let subscription = outer.flatMap { inners[$0] }.subscribe(observer)
            for index in 0..<Self.threads { outer.onNext(index) }
            concurrently(Self.threads + 1) { index in
                if index == Self.threads {
                    subscription.dispose()
                } else {
                    for value in 0..<200 { inners[index].onNext(value) }
                }
            }
            #expect(observer.overlaps == 0)
            #expect(!inners.contains { $0.hasObservers })
        }
    }
}
