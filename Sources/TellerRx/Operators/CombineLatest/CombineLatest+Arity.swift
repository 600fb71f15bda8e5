// The overloads for 2 to 8 sources, thin by design: each lists its sources as typed
// `CombineLatestSourceOf` values and says how to read their latest elements; CombineLatestSink (CombineLatest.swift) does the work.
// `@inlinable`, with `combineLatestResult`, so the function that reads the latest elements is
// specialized for them where the operator is used.

extension ObservableType {
    /// Combines the latest elements of two sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of three sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of four sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
                CombineLatestSourceOf<O4.Element>(source4.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of five sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        resultSelector:
            @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
                CombineLatestSourceOf<O4.Element>(source4.asObservable()),
                CombineLatestSourceOf<O5.Element>(source5.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of six sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        resultSelector:
            @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws ->
            Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
                CombineLatestSourceOf<O4.Element>(source4.asObservable()),
                CombineLatestSourceOf<O5.Element>(source5.asObservable()),
                CombineLatestSourceOf<O6.Element>(source6.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of seven sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType,
        O7: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        resultSelector:
            @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
            throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
                CombineLatestSourceOf<O4.Element>(source4.asObservable()),
                CombineLatestSourceOf<O5.Element>(source5.asObservable()),
                CombineLatestSourceOf<O6.Element>(source6.asObservable()),
                CombineLatestSourceOf<O7.Element>(source7.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }

    /// Combines the latest elements of eight sources with `resultSelector` whenever any of them sends an element.
    ///
    /// A result is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source, or thrown by `resultSelector`, is sent at once and disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element triggered it; results are
    /// delivered one at a time, never overlapping, even when the sources emit on different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    ///   - source8: Source 8.
    ///   - resultSelector: Combines the latest element of each source.
    /// - Returns: An observable of the results for the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType,
        O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8,
        resultSelector:
            @escaping @Sendable (
                O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element
            ) throws -> Element
    ) -> Observable<Element> {
        CombineLatestProducer(
            sources: [
                CombineLatestSourceOf<O1.Element>(source1.asObservable()),
                CombineLatestSourceOf<O2.Element>(source2.asObservable()),
                CombineLatestSourceOf<O3.Element>(source3.asObservable()),
                CombineLatestSourceOf<O4.Element>(source4.asObservable()),
                CombineLatestSourceOf<O5.Element>(source5.asObservable()),
                CombineLatestSourceOf<O6.Element>(source6.asObservable()),
                CombineLatestSourceOf<O7.Element>(source7.asObservable()),
                CombineLatestSourceOf<O8.Element>(source8.asObservable()),
            ],
            resultSelector: combineLatestResult(resultSelector)
        )
    }
}

/// The result function for two sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self)
        )
    }
}

/// The result function for three sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self)
        )
    }
}

/// The result function for four sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, E4, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self),
            latest(values, 3, as: E4.self)
        )
    }
}

/// The result function for five sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, E4, E5, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self),
            latest(values, 3, as: E4.self),
            latest(values, 4, as: E5.self)
        )
    }
}

/// The result function for six sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, E4, E5, E6, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self),
            latest(values, 3, as: E4.self),
            latest(values, 4, as: E5.self),
            latest(values, 5, as: E6.self)
        )
    }
}

/// The result function for seven sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, E4, E5, E6, E7, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self),
            latest(values, 3, as: E4.self),
            latest(values, 4, as: E5.self),
            latest(values, 5, as: E6.self),
            latest(values, 6, as: E7.self)
        )
    }
}

/// The result function for eight sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
@inlinable
func combineLatestResult<E1, E2, E3, E4, E5, E6, E7, E8, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Result
) -> CombineLatestProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            latest(values, 0, as: E1.self),
            latest(values, 1, as: E2.self),
            latest(values, 2, as: E3.self),
            latest(values, 3, as: E4.self),
            latest(values, 4, as: E5.self),
            latest(values, 5, as: E6.self),
            latest(values, 6, as: E7.self),
            latest(values, 7, as: E8.self)
        )
    }
}

extension ObservableType where Element == any Sendable {
    /// Combines the latest elements of two sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType>(
        _ source1: O1,
        _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        Observable<(O1.Element, O2.Element)>.combineLatest(source1, source2) { ($0, $1) }
    }

    /// Combines the latest elements of three sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element)>.combineLatest(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Combines the latest elements of four sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>.combineLatest(source1, source2, source3, source4) {
            ($0, $1, $2, $3)
        }
    }

    /// Combines the latest elements of five sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>.combineLatest(
            source1,
            source2,
            source3,
            source4,
            source5
        ) { ($0, $1, $2, $3, $4) }
    }

    /// Combines the latest elements of six sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>.combineLatest(
            source1,
            source2,
            source3,
            source4,
            source5,
            source6
        ) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Combines the latest elements of seven sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType,
        O7: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>.combineLatest(
            source1,
            source2,
            source3,
            source4,
            source5,
            source6,
            source7
        ) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Combines the latest elements of eight sources into tuples whenever any of them sends an element.
    ///
    /// A tuple is sent each time a source sends an element, once every source has sent at least
    /// one. The result completes when every source has completed, or when a source sends an
    /// element while another source is done without ever having sent one. An error from any
    /// source is sent at once and disposes every source. Tuples are delivered one at a time,
    /// never overlapping, on the thread of the source whose element triggered them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    ///   - source8: Source 8.
    /// - Returns: An observable of tuples of the sources' latest elements.
    @inlinable
    public static func combineLatest<
        O1: ObservableType,
        O2: ObservableType,
        O3: ObservableType,
        O4: ObservableType,
        O5: ObservableType,
        O6: ObservableType,
        O7: ObservableType,
        O8: ObservableType
    >(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        _ source5: O5,
        _ source6: O6,
        _ source7: O7,
        _ source8: O8
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)>
            .combineLatest(source1, source2, source3, source4, source5, source6, source7, source8) {
                ($0, $1, $2, $3, $4, $5, $6, $7)
            }
    }
}
