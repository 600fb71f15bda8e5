// The operators of an infallible, with RxSwift's signatures: each forwards to the observable
// operator of the same name (see there for threads and timing) and wraps the result again.

extension InfallibleType {
    /// Sends only the elements for which `predicate` returns `true`.
    ///
    /// - Parameter predicate: Runs on the thread that delivers each element.
    /// - Returns: An infallible of the matching elements.
    public func filter(_ predicate: @escaping @Sendable (Element) -> Bool) -> Infallible<Element> {
        Infallible(asObservable().filter(predicate))
    }

    /// Transforms each element with `transform`.
    ///
    /// - Parameter transform: Runs on the thread that delivers each element.
    /// - Returns: An infallible of the transformed elements.
    public func map<Result: Sendable>(_ transform: @escaping @Sendable (Element) -> Result) -> Infallible<Result> {
        Infallible(asObservable().map(transform))
    }

    /// Transforms each element with `transform` and drops the `nil` results.
    ///
    /// - Parameter transform: Runs on the thread that delivers each element.
    /// - Returns: An infallible of the non-`nil` results.
    public func compactMap<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result?
    ) -> Infallible<Result> {
        Infallible(asObservable().compactMap(transform))
    }

    /// Sends each intermediate result of folding the elements into `seed`, mutating it in place.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation; each subscription starts again from it.
    ///   - accumulator: Folds an element into the accumulation.
    /// - Returns: An infallible of the accumulation after each element.
    public func scan<Seed: Sendable>(
        into seed: Seed,
        accumulator: @escaping @Sendable (inout Seed, Element) -> Void
    ) -> Infallible<Seed> {
        Infallible(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Sends each intermediate result of folding the elements into `seed`.
    ///
    /// - Parameters:
    ///   - seed: The initial accumulation; each subscription starts again from it.
    ///   - accumulator: Returns the next accumulation from the current one and an element.
    /// - Returns: An infallible of the accumulation after each element.
    public func scan<Seed: Sendable>(
        _ seed: Seed,
        accumulator: @escaping @Sendable (Seed, Element) -> Seed
    ) -> Infallible<Seed> {
        Infallible(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Sends `element` first, then this sequence's elements.
    ///
    /// - Parameter element: The element sent at subscription.
    /// - Returns: An infallible starting with `element`.
    public func startWith(_ element: Element) -> Infallible<Element> {
        Infallible(asObservable().startWith(element))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops elements equal to the element before them.
    ///
    /// - Returns: An infallible without consecutive duplicates.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Drops elements whose key equals the key of the element before them.
    ///
    /// - Parameter keySelector: Returns an element's key; if it throws, the error ends the
    ///   sequence (see ``Infallible``).
    /// - Returns: An infallible without consecutive elements with equal keys.
    public func distinctUntilChanged<Key: Equatable>(
        _ keySelector: @escaping @Sendable (Element) throws -> Key
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops elements that `comparer` says equal the element before them.
    ///
    /// - Parameter comparer: Whether two consecutive elements are equal; if it throws, the
    ///   error ends the sequence (see ``Infallible``).
    /// - Returns: An infallible without consecutive duplicates.
    public func distinctUntilChanged(
        _ comparer: @escaping @Sendable (Element, Element) throws -> Bool
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops elements whose key `comparer` says equals the key of the element before them.
    ///
    /// - Parameters:
    ///   - keySelector: Returns an element's key.
    ///   - comparer: Whether two keys are equal.
    /// - Returns: An infallible without consecutive elements with equal keys.
    public func distinctUntilChanged<Key>(
        _ keySelector: @escaping @Sendable (Element) throws -> Key,
        comparer: @escaping @Sendable (Key, Key) throws -> Bool
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops elements whose property at `keyPath` equals that of the element before them.
    ///
    /// - Parameter keyPath: The property to compare.
    /// - Returns: An infallible without consecutive elements with equal properties.
    public func distinctUntilChanged<Property: Equatable & SendableMetatype>(
        at keyPath: any KeyPath<Element, Property> & Sendable
    ) -> Infallible<Element> {
        Infallible(asObservable().distinctUntilChanged(at: keyPath))
    }
}

extension InfallibleType {
    /// Sends an element only once `dueTime` has passed without another one.
    ///
    /// - Parameters:
    ///   - dueTime: The quiet time an element must be followed by.
    ///   - scheduler: Runs the timers and sends the elements.
    /// - Returns: The debounced infallible.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Sends at most one element per `dueTime`: the first of each window, and (with `latest`)
    /// the last one at its end.
    ///
    /// - Parameters:
    ///   - dueTime: The window length.
    ///   - latest: Whether to send the window's latest element when it ends.
    ///   - scheduler: Runs the timers.
    /// - Returns: The throttled infallible.
    public func throttle(
        _ dueTime: RxTimeInterval,
        latest: Bool = true,
        scheduler: any SchedulerType
    ) -> Infallible<Element> {
        Infallible(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }
}

extension InfallibleType {
    /// Maps each element to a sequence and merges the elements of all of them.
    ///
    /// - Parameter selector: Returns the sequence for an element. As in RxSwift it may return
    ///   any sequence; one that fails ends the result with its error (see ``Infallible``).
    /// - Returns: An infallible of the inner sequences' elements.
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMap(selector))
    }

    /// Maps each element to a sequence and sends the elements of only the latest one.
    ///
    /// - Parameter selector: Returns the sequence for an element (see ``flatMap(_:)``).
    /// - Returns: An infallible of the latest inner sequence's elements.
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapLatest(selector))
    }

    /// Maps an element to a sequence only while no earlier one is running, and sends its
    /// elements; elements that arrive meanwhile are dropped.
    ///
    /// - Parameter selector: Returns the sequence for an element (see ``flatMap(_:)``).
    /// - Returns: An infallible of the inner sequences' elements.
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().flatMapFirst(selector))
    }

    /// Maps each element to a sequence and sends their elements one sequence after another.
    ///
    /// - Parameter selector: Returns the sequence for an element (see ``flatMap(_:)``).
    /// - Returns: An infallible of the inner sequences' elements, in order.
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) -> Source
    ) -> Infallible<Source.Element> {
        Infallible(asObservable().concatMap(selector))
    }
}

extension InfallibleType {
    /// Sends the elements until `other` sends an element, then completes.
    ///
    /// - Parameter other: The infallible whose first element ends this one.
    /// - Returns: The elements sent before `other`'s first element.
    public func take<Source: InfallibleType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other.asObservable()))
    }

    /// Sends the elements until `other` sends an element, then completes.
    ///
    /// - Parameter other: The sequence whose first element ends this one; if it fails, its
    ///   error ends the result (see ``Infallible``).
    /// - Returns: The elements sent before `other`'s first element.
    public func take<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().take(until: other))
    }

    /// Sends elements until one satisfies `predicate`, then completes.
    ///
    /// - Parameters:
    ///   - predicate: Decides the element that ends the sequence.
    ///   - behavior: Whether that element is sent too; `.exclusive` by default.
    /// - Returns: The elements before (or up to) the first that satisfies `predicate`.
    public func take(
        until predicate: @escaping @Sendable (Element) throws -> Bool,
        behavior: TakeBehavior = .exclusive
    ) -> Infallible<Element> {
        Infallible(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Sends elements while they satisfy `predicate`, then completes.
    ///
    /// - Parameters:
    ///   - predicate: Decides whether to go on.
    ///   - behavior: Whether the first failing element is sent too; `.exclusive` by default.
    /// - Returns: The leading elements that satisfy `predicate`.
    public func take(
        while predicate: @escaping @Sendable (Element) throws -> Bool,
        behavior: TakeBehavior = .exclusive
    ) -> Infallible<Element> {
        Infallible(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Sends the first `count` elements, then completes.
    ///
    /// A negative `count` is a programming error; it is reported in debug builds and treated
    /// as 0 (an infallible cannot fail with ``RxError/argumentOutOfRange``).
    ///
    /// - Parameter count: How many elements to send.
    /// - Returns: An infallible of at most `count` elements.
    public func take(_ count: Int) -> Infallible<Element> {
        if count < 0 {
            reportMisuse("Infallible.take(_:) was called with a negative count (\(count)); it completes at once.")
        }
        return Infallible(asObservable().take(max(count, 0)))
    }

    /// Sends the elements of the first `duration`, then completes.
    ///
    /// - Parameters:
    ///   - duration: How long to pass the elements on.
    ///   - scheduler: Runs the timer and sends the completion it causes.
    /// - Returns: The infallible, cut off after `duration`.
    public func take(for duration: RxTimeInterval, scheduler: any SchedulerType) -> Infallible<Element> {
        Infallible(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Drops elements while they satisfy `predicate`, then sends the rest.
    ///
    /// - Parameter predicate: Decides which leading elements to drop.
    /// - Returns: The elements from the first one that fails `predicate`.
    public func skip(while predicate: @escaping @Sendable (Element) throws -> Bool) -> Infallible<Element> {
        Infallible(asObservable().skip(while: predicate))
    }

    /// Drops elements until `other` sends an element, then sends the rest.
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The elements sent after `other`'s first element.
    public func skip<Source: ObservableType>(until other: Source) -> Infallible<Element> {
        Infallible(asObservable().skip(until: other))
    }
}

extension InfallibleType {
    /// Shares one subscription to this sequence among all subscribers, replaying the latest
    /// `replay` elements to new ones (see ``ObservableType/share(replay:scope:)``).
    ///
    /// - Parameters:
    ///   - replay: How many of the latest elements a new subscriber gets at once.
    ///   - scope: Whether the replay buffer outlives the shared subscription.
    /// - Returns: A shared infallible.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible(asObservable().share(replay: replay, scope: scope))
    }

    /// Passes each element with `obj` to `resultSelector` while `obj` is alive, without keeping
    /// it alive; completes once it has been deallocated.
    ///
    /// - Parameters:
    ///   - obj: The object, held weakly.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: An infallible of the combined values.
    public func withUnretained<Object: AnyObject & Sendable, Out: Sendable>(
        _ obj: Object,
        resultSelector: @escaping @Sendable (Object, Element) -> Out
    ) -> Infallible<Out> {
        Infallible(asObservable().withUnretained(obj, resultSelector: resultSelector))
    }

    /// Pairs each element with `obj` while `obj` is alive, without keeping it alive; completes
    /// once it has been deallocated.
    ///
    /// - Parameter obj: The object, held weakly.
    /// - Returns: An infallible of `(object, element)` pairs.
    public func withUnretained<Object: AnyObject & Sendable>(_ obj: Object) -> Infallible<(Object, Element)> {
        Infallible(asObservable().withUnretained(obj))
    }

    /// Runs side effects around each event and around subscription and disposal (see
    /// ``ObservableType/do(onNext:afterNext:onError:afterError:onCompleted:afterCompleted:onSubscribe:onSubscribed:onDispose:)``).
    ///
    /// - Parameters:
    ///   - onNext: Runs before each element is sent downstream.
    ///   - afterNext: Runs after each element was sent downstream.
    ///   - onCompleted: Runs before completion is sent downstream.
    ///   - afterCompleted: Runs after completion was sent downstream.
    ///   - onSubscribe: Runs before the source is subscribed.
    ///   - onSubscribed: Runs after the source was subscribed.
    ///   - onDispose: Runs after the source subscription was disposed.
    /// - Returns: An infallible with the same events.
    public func `do`(
        onNext: (@Sendable (Element) throws -> Void)? = nil,
        afterNext: (@Sendable (Element) throws -> Void)? = nil,
        onCompleted: (@Sendable () throws -> Void)? = nil,
        afterCompleted: (@Sendable () throws -> Void)? = nil,
        onSubscribe: (@Sendable () -> Void)? = nil,
        onSubscribed: (@Sendable () -> Void)? = nil,
        onDispose: (@Sendable () -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(
            asObservable().do(
                onNext: onNext,
                afterNext: afterNext,
                onCompleted: onCompleted,
                afterCompleted: afterCompleted,
                onSubscribe: onSubscribe,
                onSubscribed: onSubscribed,
                onDispose: onDispose
            )
        )
    }

    /// Prints every event and subscription with `identifier`, in RxSwift's format (see
    /// ``ObservableType/debug(_:trimOutput:file:line:function:)``).
    ///
    /// - Parameters:
    ///   - identifier: The label of the printed lines; the call site by default.
    ///   - trimOutput: Whether to shorten long element descriptions.
    ///   - file: The calling file.
    ///   - line: The calling line.
    ///   - function: The calling function.
    /// - Returns: An infallible with the same events.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> Infallible<Element> {
        Infallible(
            asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function)
        )
    }
}
