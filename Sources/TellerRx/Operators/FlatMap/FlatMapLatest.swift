extension ObservableType {
    /// Maps each element to an inner sequence and forwards the elements of the most recent
    /// inner sequence only: a new source element disposes the previous inner sequence.
    ///
    /// The result completes once the source and the latest inner sequence have completed. An
    /// error from the source, from the latest inner sequence, or thrown by `selector` is sent
    /// at once and disposes everything.
    ///
    /// `selector` runs on the thread that delivers the source element; inner events are
    /// delivered on the thread that sends them, serialized with the source's.
    ///
    /// ```swift
    /// let results = searchText.flatMapLatest { query in api.search(query) }
    /// // typing a new query cancels the search still running for the previous one
    /// ```
    ///
    /// - Parameter selector: Maps an element to the sequence to switch to.
    /// - Returns: An observable of the elements of the latest inner sequence.
    @inlinable
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        SwitchProducer(source: asObservable(), selector: selector)
    }
}
