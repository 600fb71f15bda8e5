extension ObservableType {
    /// Maps an element to an inner sequence only while no inner sequence is running, and
    /// forwards that inner sequence's elements; elements that arrive meanwhile are ignored.
    ///
    /// Useful to ignore repeated taps while the work the first one started is still running.
    /// `selector` is not called for ignored elements. The result completes once the source and
    /// the running inner sequence have completed. An error from either, or thrown by
    /// `selector`, is sent at once and disposes both.
    ///
    /// `selector` runs on the thread that delivers the source element; inner events are
    /// delivered on the thread that sends them, serialized with the source's.
    ///
    /// ```swift
    /// let logins = loginTaps.flatMapFirst { api.logIn() }  // taps during a login are ignored
    /// ```
    ///
    /// - Parameter selector: Maps an element to the sequence to run.
    /// - Returns: An observable of the elements of the inner sequences that were run.
    @inlinable
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping @Sendable (Element) throws -> Source
    ) -> Observable<Source.Element> {
        MergeProducer(source: asObservable(), limit: .dropWhileBusy, selector: selector)
    }
}
