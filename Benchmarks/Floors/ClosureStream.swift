/// The floor for the operator workloads: a cold push stream made of nothing but closures, the
/// least a synchronous, single-threaded Rx could do. Subscribing calls `subscribe` with the
/// downstream closure; each operator wraps the downstream closure in one of its own.
///
/// What it leaves out is what the floors measure TellerRx against: no `Event` enum (so no
/// terminal events), no disposal, no locks or atomics, no type erasure beyond function values,
/// no generics (everything is `Int`, where TellerRx's generic sinks may run unspecialized).
///
/// Every operator is `@inline(never)` so the chain is composed at run time, one closure per
/// stage, as TellerRx composes sinks; otherwise the optimizer could fold a whole chain built
/// in one function into a single loop, which no Rx implementation can match and no real app
/// gets (chains are built in one place and subscribed in another).
struct ClosureStream {
    let subscribe: (@escaping (Int) -> Void) -> Void

    /// `count` ones, sent synchronously on subscription (the `Observable.create` source).
    @inline(never)
    static func ones(_ count: Int) -> ClosureStream {
        ClosureStream { next in
            for _ in 0..<count { next(1) }
        }
    }

    /// One element, sent synchronously on subscription (`Observable.just`).
    @inline(never)
    static func just(_ element: Int) -> ClosureStream {
        ClosureStream { next in next(element) }
    }

    @inline(never)
    func map(_ transform: @escaping (Int) -> Int) -> ClosureStream {
        let source = subscribe
        return ClosureStream { next in source { next(transform($0)) } }
    }

    @inline(never)
    func filter(_ predicate: @escaping (Int) -> Bool) -> ClosureStream {
        let source = subscribe
        return ClosureStream { next in
            source { if predicate($0) { next($0) } }
        }
    }

    /// Per element: calls `selector`, which creates the inner stream (a closure), and
    /// subscribes to it: one closure created and one called per stage per element.
    @inline(never)
    func flatMap(_ selector: @escaping (Int) -> ClosureStream) -> ClosureStream {
        let source = subscribe
        return ClosureStream { next in
            source { selector($0).subscribe(next) }
        }
    }

    /// As ``flatMap(_:)``, and the inner subscription forwards only while it is the latest one:
    /// a generation counter per subscription stands in for switching the inner subscription.
    @inline(never)
    func flatMapLatest(_ selector: @escaping (Int) -> ClosureStream) -> ClosureStream {
        let source = subscribe
        return ClosureStream { next in
            let latest = Accumulator()
            source { element in
                latest.value &+= 1
                let generation = latest.value
                selector(element).subscribe { inner in
                    if latest.value == generation { next(inner) }
                }
            }
        }
    }

    /// Keeps the latest element of each source in one box per subscription and, once every
    /// source has sent one, sends `combine` of the four on each element.
    @inline(never)
    static func combineLatest(
        _ first: ClosureStream,
        _ second: ClosureStream,
        _ third: ClosureStream,
        _ fourth: ClosureStream,
        _ combine: @escaping (Int, Int, Int, Int) -> Int
    ) -> ClosureStream {
        ClosureStream { next in
            let latest = LatestFour()
            first.subscribe {
                latest.first = $0
                latest.send(next, combine)
            }
            second.subscribe {
                latest.second = $0
                latest.send(next, combine)
            }
            third.subscribe {
                latest.third = $0
                latest.send(next, combine)
            }
            fourth.subscribe {
                latest.fourth = $0
                latest.send(next, combine)
            }
        }
    }
}

/// The latest elements of a four-source combineLatest floor.
private final class LatestFour {
    var first: Int?
    var second: Int?
    var third: Int?
    var fourth: Int?

    func send(_ next: (Int) -> Void, _ combine: (Int, Int, Int, Int) -> Int) {
        if let first, let second, let third, let fourth {
            next(combine(first, second, third, fourth))
        }
    }
}
