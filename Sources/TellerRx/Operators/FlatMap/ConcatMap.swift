extension ObservableType {
    /// Maps each element to an inner sequence and concatenates the inner sequences: each one
    /// is subscribed only after the previous one completed, so their elements never interleave.
    ///
    /// `selector` runs as soon as each source element arrives (the inner sequences wait in a
    /// queue until their turn). The result completes once the source and every inner sequence
    /// have completed. An error from the source, from an inner sequence, or thrown by
    /// `selector` is sent at once and disposes everything.
    ///
    /// `selector` runs on the thread that delivers the source element; inner events are
    /// delivered on the thread that sends them, serialized with the source's.
    ///
    /// - Parameter selector: Maps an element to the sequence to append.
    /// - Returns: An observable of the elements of the inner sequences, one sequence after another.
    @inlinable
    public func concatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), limit: .queue(maxConcurrent: 1), selector: selector)
    }
}
