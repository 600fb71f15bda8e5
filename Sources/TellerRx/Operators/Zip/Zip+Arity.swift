// The overloads for 2 to 8 sources, thin by design: each lists its sources as typed
// `ZipSourceOf` values and says how to read their queued elements; ZipSink (Zip.swift) does the work.

extension ObservableType {
    /// Pairs up the elements of two sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element) throws -> Element
    ) -> Observable<Element> {
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of three sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element) throws -> Element
    ) -> Observable<Element> {
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of four sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4,
        resultSelector: @escaping @Sendable (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
    ) -> Observable<Element> {
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
                ZipSourceOf<O4.Element, Element>(source4),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of five sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<
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
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
                ZipSourceOf<O4.Element, Element>(source4),
                ZipSourceOf<O5.Element, Element>(source5),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of six sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<
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
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
                ZipSourceOf<O4.Element, Element>(source4),
                ZipSourceOf<O5.Element, Element>(source5),
                ZipSourceOf<O6.Element, Element>(source6),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of seven sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<
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
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
                ZipSourceOf<O4.Element, Element>(source4),
                ZipSourceOf<O5.Element, Element>(source5),
                ZipSourceOf<O6.Element, Element>(source6),
                ZipSourceOf<O7.Element, Element>(source7),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }

    /// Pairs up the elements of eight sources by index and combines each group with `resultSelector`.
    ///
    /// The n-th result combines the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6; queued elements that can no longer be paired are dropped
    /// then). An error from any source, or thrown by `resultSelector`, is sent at once and
    /// disposes every source.
    ///
    /// `resultSelector` runs on the thread of the source whose element completed a group;
    /// results are delivered one at a time, never overlapping, even when the sources emit on
    /// different threads.
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
    ///   - resultSelector: Combines the n-th element of each source.
    /// - Returns: An observable of the results for each group of elements with the same index.
    public static func zip<
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
        ZipProducer(
            sources: [
                ZipSourceOf<O1.Element, Element>(source1),
                ZipSourceOf<O2.Element, Element>(source2),
                ZipSourceOf<O3.Element, Element>(source3),
                ZipSourceOf<O4.Element, Element>(source4),
                ZipSourceOf<O5.Element, Element>(source5),
                ZipSourceOf<O6.Element, Element>(source6),
                ZipSourceOf<O7.Element, Element>(source7),
                ZipSourceOf<O8.Element, Element>(source8),
            ],
            resultSelector: zipResult(resultSelector)
        )
    }
}

/// The result function for two sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self)
        )
    }
}

/// The result function for three sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self)
        )
    }
}

/// The result function for four sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, E4, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self),
            dequeueFirst(values, 3, as: E4.self)
        )
    }
}

/// The result function for five sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, E4, E5, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self),
            dequeueFirst(values, 3, as: E4.self),
            dequeueFirst(values, 4, as: E5.self)
        )
    }
}

/// The result function for six sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, E4, E5, E6, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self),
            dequeueFirst(values, 3, as: E4.self),
            dequeueFirst(values, 4, as: E5.self),
            dequeueFirst(values, 5, as: E6.self)
        )
    }
}

/// The result function for seven sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, E4, E5, E6, E7, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self),
            dequeueFirst(values, 3, as: E4.self),
            dequeueFirst(values, 4, as: E5.self),
            dequeueFirst(values, 5, as: E6.self),
            dequeueFirst(values, 6, as: E7.self)
        )
    }
}

/// The result function for eight sources, generic over the element types themselves: reading
/// them as `O1.Element`, … inside the result function would look each one up per result.
private func zipResult<E1, E2, E3, E4, E5, E6, E7, E8, Result: Sendable>(
    _ resultSelector: @escaping @Sendable (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Result
) -> ZipProducer<Result>.ResultSelector {
    { values in
        try resultSelector(
            dequeueFirst(values, 0, as: E1.self),
            dequeueFirst(values, 1, as: E2.self),
            dequeueFirst(values, 2, as: E3.self),
            dequeueFirst(values, 3, as: E4.self),
            dequeueFirst(values, 4, as: E5.self),
            dequeueFirst(values, 5, as: E6.self),
            dequeueFirst(values, 6, as: E7.self),
            dequeueFirst(values, 7, as: E8.self)
        )
    }
}

extension ObservableType where Element == any Sendable {
    /// Pairs up the elements of two sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType>(
        _ source1: O1,
        _ source2: O2
    ) -> Observable<(O1.Element, O2.Element)> {
        Observable<(O1.Element, O2.Element)>.zip(source1, source2) { ($0, $1) }
    }

    /// Pairs up the elements of three sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3
    ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element)>.zip(source1, source2, source3) { ($0, $1, $2) }
    }

    /// Pairs up the elements of four sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<O1: ObservableType, O2: ObservableType, O3: ObservableType, O4: ObservableType>(
        _ source1: O1,
        _ source2: O2,
        _ source3: O3,
        _ source4: O4
    ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>.zip(source1, source2, source3, source4) {
            ($0, $1, $2, $3)
        }
    }

    /// Pairs up the elements of five sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<
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
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>.zip(
            source1,
            source2,
            source3,
            source4,
            source5
        ) { ($0, $1, $2, $3, $4) }
    }

    /// Pairs up the elements of six sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<
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
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>.zip(
            source1,
            source2,
            source3,
            source4,
            source5,
            source6
        ) { ($0, $1, $2, $3, $4, $5) }
    }

    /// Pairs up the elements of seven sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
    ///
    /// - Parameters:
    ///   - source1: Source 1.
    ///   - source2: Source 2.
    ///   - source3: Source 3.
    ///   - source4: Source 4.
    ///   - source5: Source 5.
    ///   - source6: Source 6.
    ///   - source7: Source 7.
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<
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
        Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>.zip(
            source1,
            source2,
            source3,
            source4,
            source5,
            source6,
            source7
        ) { ($0, $1, $2, $3, $4, $5, $6) }
    }

    /// Pairs up the elements of eight sources by index into tuples.
    ///
    /// The n-th tuple holds the n-th element of every source: elements wait in a queue per
    /// source until every source has sent its n-th one. The result completes when every source
    /// has completed (as in RxSwift 6). An error from any source is sent at once and disposes
    /// every source. Tuples are delivered one at a time, never overlapping, on the thread of
    /// the source whose element completed them.
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
    /// - Returns: An observable of tuples of the elements with the same index.
    public static func zip<
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
            .zip(source1, source2, source3, source4, source5, source6, source7, source8) {
                ($0, $1, $2, $3, $4, $5, $6, $7)
            }
    }
}
