extension ObservableType {
    /// Maps each element to an inner sequence and merges the elements of all inner sequences,
    /// in the order they arrive.
    ///
    /// Every inner sequence stays subscribed until it ends, so inner sequences can overlap.
    /// The result completes once the source and every inner sequence have completed. An error
    /// from the source, from any inner sequence, or thrown by `selector` is sent at once and
    /// disposes the source and every inner subscription.
    ///
    /// `selector` runs on the thread that delivers the source element, serialized with the
    /// result's events. Events from inner sequences that emit on different threads are
    /// delivered one at a time, never overlapping, on the thread of the inner that sent them.
    ///
    /// ```swift
    /// let users = userIDs.flatMap { id in api.fetchUser(id: id) }  // fetches run in parallel
    /// ```
    ///
    /// - Parameter selector: Maps an element to the sequence whose elements are merged in.
    /// - Returns: An observable of the elements of every inner sequence.
    @inlinable
    public func flatMap<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), limit: .unlimited, selector: selector)
    }
}
