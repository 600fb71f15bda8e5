/// What a data source's fetch returns: `.success(value)` with the fetched data, or
/// `.failure(error)` with an error Teller passes on to the UI as the refresh error.
///
/// It is a plain `Result`, so all of `Result`'s API works on it.
public typealias FetchResponse<Value, Failure: Error> = Result<Value, Failure>

extension Result {
    /// A successful fetch: Teller-iOS's older spelling of `.success(data)`.
    ///
    /// - Parameter data: The fetched data.
    /// - Returns: `.success(data)`.
    public static func success(data: Success) -> Result {
        .success(data)
    }
}
