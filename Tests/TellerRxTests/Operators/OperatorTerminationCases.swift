@_spi(TellerInternals) import TellerRx

/// A synchronous source of `0..<count` followed by completion, of each kind that sends from
/// inside `subscribe`: a trampolined producer, a plain `create` loop, and a subject that
/// replays before `subscribe` returns.
enum SyncSource: String, CaseIterable, Sendable, CustomStringConvertible {
    case of
    case createLoop
    case replaySubject

    var description: String { rawValue }

    func make(count: Int) -> Observable<Int> {
        switch self {
        case .of:
            return Observable.from(Array(0..<count))
        case .createLoop:
            return Observable.create { observer in
                for element in 0..<count {
                    observer.onNext(element)
                }
                observer.onCompleted()
                return Disposables.create()
            }
        case .replaySubject:
            let subject = ReplaySubject<Int>.createUnbounded()
            for element in 0..<count {
                subject.onNext(element)
            }
            subject.onCompleted()
            return subject.asObservable()
        }
    }
}

/// A source that the test feeds by hand, to every subscription it ever had, disposed or not.
final class LeakySource: Sendable {
    private let observers = Locked<[AnyObserver<Int>]>([])

    var observable: Observable<Int> {
        Observable.create { [observers] observer in
            observers.withLock { $0.append(observer) }
            return Disposables.create()
        }
    }

    func send(_ element: Int) {
        for observer in observers.value {
            observer.onNext(element)
        }
    }
}

/// An operator with a user closure; `apply` calls `probe` with each element inside it.
struct ClosureCase: Sendable, CustomStringConvertible {
    typealias Probe = @Sendable (Int) throws -> Void

    let description: String
    /// How often the closure runs for two elements to come out (RxSwift's count).
    let callsForTwoElements: Int
    let apply: @Sendable (Observable<Int>, @escaping Probe) -> Observable<Int>

    init(
        _ description: String,
        callsForTwoElements: Int = 2,
        apply: @escaping @Sendable (Observable<Int>, @escaping Probe) -> Observable<Int>
    ) {
        self.description = description
        self.callsForTwoElements = callsForTwoElements
        self.apply = apply
    }

    static let all: [ClosureCase] = [
        ClosureCase("map") { source, probe in
            source.map { element in
                try probe(element)
                return element
            }
        },
        ClosureCase("filter") { source, probe in
            source.filter { element in
                try probe(element)
                return true
            }
        },
        ClosureCase("compactMap") { source, probe in
            source.compactMap { element in
                try probe(element)
                return element
            }
        },
        ClosureCase("scan") { source, probe in
            source.scan(0) { _, element in
                try probe(element)
                return element
            }
        },
        ClosureCase("do(onNext:)") { source, probe in
            source.do(onNext: probe)
        },
        ClosureCase("flatMap") { source, probe in
            source.flatMap { element in
                try probe(element)
                return Observable.just(element)
            }
        },
        ClosureCase("flatMapLatest") { source, probe in
            source.flatMapLatest { element in
                try probe(element)
                return Observable.just(element)
            }
        },
        ClosureCase("flatMapFirst") { source, probe in
            source.flatMapFirst { element in
                try probe(element)
                return Observable.just(element)
            }
        },
        ClosureCase("concatMap") { source, probe in
            source.concatMap { element in
                try probe(element)
                return Observable.just(element)
            }
        },
        // Asked only until it first says "stop skipping".
        ClosureCase("skip(while:)", callsForTwoElements: 1) { source, probe in
            source.skip(while: { element in
                try probe(element)
                return false
            })
        },
        ClosureCase("take(while:)") { source, probe in
            source.take(while: { element in
                try probe(element)
                return true
            })
        },
        ClosureCase("take(until:)") { source, probe in
            source.take(until: { element in
                try probe(element)
                return false
            })
        },
        ClosureCase("distinctUntilChanged(_:)") { source, probe in
            source.distinctUntilChanged { element in
                try probe(element)
                return element
            }
        },
        ClosureCase("groupBy") { source, probe in
            source.groupBy { element in
                try probe(element)
                return 0
            }
            .flatMap { $0.asObservable() }
        },
        ClosureCase("withLatestFrom") { source, probe in
            source.withLatestFrom(Observable.just(0)) { element, _ in
                try probe(element)
                return element
            }
        },
        ClosureCase("combineLatest") { source, probe in
            Observable.combineLatest(Observable.just(0), source) { _, element in
                try probe(element)
                return element
            }
        },
        ClosureCase("zip") { source, probe in
            Observable.zip(source, source) { element, _ in
                try probe(element)
                return element
            }
        },
    ]
}

/// An operator without a closure of its own, between a counting `map` and `take(2)`.
struct PassThroughCase: Sendable, CustomStringConvertible {
    let description: String
    /// How often the `map` before it runs for two elements to come out of it, whichever
    /// synchronous source feeds it.
    let upstreamCalls: Int
    let apply: @Sendable (Observable<Int>) -> Observable<Int>

    init(
        _ description: String,
        upstreamCalls: Int = 2,
        apply: @escaping @Sendable (Observable<Int>) -> Observable<Int>
    ) {
        self.description = description
        self.upstreamCalls = upstreamCalls
        self.apply = apply
    }

    static let all: [PassThroughCase] = [
        PassThroughCase("enumerated") { $0.enumerated().map { $0.element } },
        PassThroughCase("materialize/dematerialize") { $0.materialize().dematerialize() },
        PassThroughCase("distinctUntilChanged()") { $0.distinctUntilChanged() },
        PassThroughCase("skip(1)", upstreamCalls: 3) { $0.skip(1) },
        PassThroughCase("startWith", upstreamCalls: 1) { $0.startWith(-1) },
        PassThroughCase("ifEmpty(default:)") { $0.ifEmpty(default: -1) },
        PassThroughCase("catch") { $0.catch { _ in .empty() } },
        PassThroughCase("catch(sequence:)") { Observable.catch(sequence: [$0]) },
        PassThroughCase("retry") { $0.retry() },
        PassThroughCase("concat") { $0.concat(Observable.empty()) },
        // Inner sequences are tracked before they are subscribed, so ending the merge reaches
        // one that is still being subscribed (and sending) at once.
        PassThroughCase("merge") { Observable.merge($0, .empty()) },
        PassThroughCase("amb") { $0.amb(Observable.never()) },
        PassThroughCase("take(until: never)") { $0.take(until: Observable<Int>.never()) },
        PassThroughCase("switchLatest") { Observable.just($0).switchLatest() },
        PassThroughCase("merge()") { Observable.just($0).merge() },
        PassThroughCase("deferred") { source in Observable.deferred { source } },
        PassThroughCase("using") { source in
            Observable.using({ SingleAssignmentDisposable() }, observableFactory: { _ in source })
        },
        PassThroughCase("do()") { $0.do() },
    ]
}
