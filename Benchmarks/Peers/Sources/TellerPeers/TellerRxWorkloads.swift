import TellerRx

/// The workloads on TellerRx, as TellerBenchmarks runs them (RxSwift's benchmark shapes).
enum TellerRxWorkloads {
    /// One `PublishSubject`, `subscribers` summing `subscribe(onNext:)`s, `count` `onNext(1)`s.
    static func subjectPumping(subscribers: Int, count: Int) -> Int {
        let sum = Accumulator()
        let subject = PublishSubject<Int>()
        let subscriptions = (0..<subscribers).map { _ in
            subject.subscribe(onNext: { sum.value += $0 })
        }
        for _ in 0..<count {
            subject.on(.next(1))
        }
        for subscription in subscriptions { subscription.dispose() }
        return sum.value
    }

    /// `count` times: a new `PublishSubject`, one subscriber, one `onNext(1)`, dispose.
    static func subjectCreating(count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { sum.value += $0 })
            subject.on(.next(1))
            subscription.dispose()
        }
        return sum.value
    }

    /// `count` ones through six `map`/`filter` pairs.
    static func mapFilterPumping(count: Int) -> Int {
        let sum = Accumulator()
        let subscription = mapFilterChain(ones(count)).subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }

    /// `count` times: the six pairs over a one-element source, subscribed and disposed.
    static func mapFilterCreating(count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subscription = mapFilterChain(ones(1)).subscribe(onNext: { sum.value += $0 })
            subscription.dispose()
        }
        return sum.value
    }

    /// `count` ones through five `flatMap { .just($0) }` (or `flatMapLatest`) stages.
    static func flatMapPumping(latest: Bool, count: Int) -> Int {
        let sum = Accumulator()
        let subscription = flatMapChain(ones(count), latest: latest).subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }

    /// `count` times: the five stages over a one-element source, subscribed and disposed.
    static func flatMapCreating(latest: Bool, count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subscription = flatMapChain(ones(1), latest: latest).subscribe(onNext: { sum.value += $0 })
            subscription.dispose()
        }
        return sum.value
    }

    /// Seven nested 4-ary `combineLatest`s, each of three `just(1)` and the level below, over
    /// a source of `count` ones.
    static func combineLatestPumping(count: Int) -> Int {
        let sum = Accumulator()
        let one = Observable.just(1)
        var last = Observable.combineLatest(one, one, one, ones(count), resultSelector: firstOfFour)
        for _ in 0..<6 {
            last = Observable.combineLatest(one, one, one, last, resultSelector: firstOfFour)
        }
        let subscription = last.subscribe(onNext: { sum.value += $0 })
        subscription.dispose()
        return sum.value
    }

    /// `count` times: the seven-level nest, the one-element source first at every level,
    /// subscribed and disposed.
    static func combineLatestCreating(count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            var last = Observable.combineLatest(
                ones(1),
                Observable.just(1),
                Observable.just(1),
                Observable.just(1),
                resultSelector: firstOfFour
            )
            for _ in 0..<6 {
                last = Observable.combineLatest(
                    last,
                    Observable.just(1),
                    Observable.just(1),
                    Observable.just(1),
                    resultSelector: firstOfFour
                )
            }
            let subscription = last.subscribe(onNext: { sum.value += $0 })
            subscription.dispose()
        }
        return sum.value
    }

    /// RxSwift's benchmark source: `Observable.create` sending `count` ones, never completing.
    private static func ones(_ count: Int) -> Observable<Int> {
        Observable<Int>.create { observer in
            for _ in 0..<count {
                observer.on(.next(1))
            }
            return Disposables.create()
        }
    }

    private static func mapFilterChain(_ source: Observable<Int>) -> Observable<Int> {
        source
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
    }

    private static func flatMapChain(_ source: Observable<Int>, latest: Bool) -> Observable<Int> {
        var stream = source
        for _ in 0..<5 {
            stream = latest ? stream.flatMapLatest { Observable.just($0) } : stream.flatMap { Observable.just($0) }
        }
        return stream
    }

    /// Every level's selector: its first source's element, as in RxSwift's benchmark.
    @Sendable private static func firstOfFour(_ first: Int, _: Int, _: Int, _: Int) -> Int {
        first
    }
}
