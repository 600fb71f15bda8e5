import OpenCombine

/// The workloads on OpenCombine, with the closest equivalent of each TellerRx operator:
/// `PassthroughSubject` for `PublishSubject`, `sink(receiveValue:)` for `subscribe(onNext:)`,
/// `cancel()` for `dispose()`, `Just` for `Observable.just`, `flatMap` (unlimited publishers)
/// for `flatMap` and `map { … }.switchToLatest()` for `flatMapLatest`. Chains are written out
/// with their static types, as Combine code is; only the source is erased, as `Observable`
/// always is.
enum OpenCombineWorkloads {
    /// One `PassthroughSubject`, `subscribers` summing sinks, `count` `send(1)`s.
    static func subjectPumping(subscribers: Int, count: Int) -> Int {
        let sum = Accumulator()
        let subject = PassthroughSubject<Int, Never>()
        let subscriptions = (0..<subscribers).map { _ in
            subject.sink { sum.value += $0 }
        }
        for _ in 0..<count {
            subject.send(1)
        }
        for subscription in subscriptions { subscription.cancel() }
        return sum.value
    }

    /// `count` times: a new `PassthroughSubject`, one sink, one `send(1)`, cancel.
    static func subjectCreating(count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subject = PassthroughSubject<Int, Never>()
            let subscription = subject.sink { sum.value += $0 }
            subject.send(1)
            subscription.cancel()
        }
        return sum.value
    }

    /// `count` ones through six `map`/`filter` pairs.
    static func mapFilterPumping(count: Int) -> Int {
        let sum = Accumulator()
        let subscription = mapFilterChain(ones(count)).sink { sum.value += $0 }
        subscription.cancel()
        return sum.value
    }

    /// `count` times: the six pairs over a one-element source, subscribed and cancelled.
    static func mapFilterCreating(count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subscription = mapFilterChain(ones(1)).sink { sum.value += $0 }
            subscription.cancel()
        }
        return sum.value
    }

    /// `count` ones through five `flatMap { Just($0) }` (or `map`+`switchToLatest`) stages.
    static func flatMapPumping(latest: Bool, count: Int) -> Int {
        let sum = Accumulator()
        let subscription = subscribeFlatMapChain(ones(count), latest: latest, sum: sum)
        subscription.cancel()
        return sum.value
    }

    /// `count` times: the five stages over a one-element source, subscribed and cancelled.
    static func flatMapCreating(latest: Bool, count: Int) -> Int {
        let sum = Accumulator()
        for _ in 0..<count {
            let subscription = subscribeFlatMapChain(ones(1), latest: latest, sum: sum)
            subscription.cancel()
        }
        return sum.value
    }

    /// A cold source sending `count` ones to each subscriber, then `.finished`. Erased so that
    /// the operators after it are the general ones, not `Publishers.Sequence`'s own `map` and
    /// `filter`, which would compute a new array up front instead of streaming.
    private static func ones(_ count: Int) -> AnyPublisher<Int, Never> {
        Publishers.Sequence(sequence: repeatElement(1, count: count)).eraseToAnyPublisher()
    }

    private static func mapFilterChain(_ source: AnyPublisher<Int, Never>) -> some Publisher<Int, Never> {
        source
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
    }

    /// The two chains have different static types, so each is subscribed where it is built.
    private static func subscribeFlatMapChain(
        _ source: AnyPublisher<Int, Never>,
        latest: Bool,
        sum: Accumulator
    ) -> AnyCancellable {
        if latest {
            return
                source
                .map { Just($0) }.switchToLatest()
                .map { Just($0) }.switchToLatest()
                .map { Just($0) }.switchToLatest()
                .map { Just($0) }.switchToLatest()
                .map { Just($0) }.switchToLatest()
                .sink { sum.value += $0 }
        }
        return
            source
            .flatMap { Just($0) }
            .flatMap { Just($0) }
            .flatMap { Just($0) }
            .flatMap { Just($0) }
            .flatMap { Just($0) }
            .sink { sum.value += $0 }
    }
}
