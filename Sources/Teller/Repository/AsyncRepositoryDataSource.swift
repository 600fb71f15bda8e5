@_spi(TellerInternals) import TellerRx

/// A ``RepositoryDataSource`` whose fetch is an `async` function instead of a `Single`.
///
/// Write `fetchFreshCache(requirements:) async throws`; Teller wraps it in a `Single` for you.
/// The task runs with the background scheduler's thread as its caller and is cancelled when
/// nobody waits for the fetch any more. A thrown error is shown like a `.failure` response.
///
/// ```swift
/// final class ReposDataSource: AsyncRepositoryDataSource {
///     func fetchFreshCache(requirements: ReposRequirements) async throws -> FetchResponse<[Repo], any Error> {
///         let (data, _) = try await URLSession.shared.data(from: requirements.url)
///         return .success(try JSONDecoder().decode([Repo].self, from: data))
///     }
///     // saveCache, observeCache, isCacheEmpty and maxAgeOfCache as usual.
/// }
/// ```
public protocol AsyncRepositoryDataSource: RepositoryDataSource {
    /// Fetches fresh data. Cancelled (cooperatively) when nobody waits for the fetch any more.
    ///
    /// - Parameter requirements: What to fetch.
    /// - Returns: The response: `.success(data)` or `.failure(error)`.
    /// - Throws: Any error; Teller treats it like a `.failure` response.
    func fetchFreshCache(requirements: Requirements) async throws -> FetchResponse<FetchResult, FetchError>
}

extension AsyncRepositoryDataSource {
    /// Runs the `async` fetch in a task; disposing the `Single` cancels the task.
    public func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, FetchError>> {
        // The data source and requirements cross into the task; Teller calls fetch members only
        // from the background scheduler and never concurrently for one flight.
        let call = UncheckedSendable((self, requirements))
        return Single.from {
            try await call.value.0.fetchFreshCache(requirements: call.value.1)
        }
    }
}
