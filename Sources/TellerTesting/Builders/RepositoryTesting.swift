import Foundation
import Teller

/// Teller-iOS's `RepositoryTesting`: its static `initState` and `initStateAsync`, and its
/// `SetValues` result, for tests ported from Teller-iOS. Each call does exactly what the same
/// call on ``TellerRepositoryTesting`` (`TellerRepository.testing`) does.
///
/// ```swift
/// let setValues: RepositoryTesting.SetValues = RepositoryTesting.initState(repository: repository, requirements: requirements) {
///     $0.cache(["teller"])
/// }
/// ```
public enum RepositoryTesting {
    /// Teller-iOS's name for ``InitStateResult``: what an `initState` call wrote.
    public typealias SetValues = InitStateResult

    /// ``TellerRepositoryTesting/initState(repository:requirements:more:)``: sets up
    /// `repository` for `requirements` on the calling thread.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - more: Describes the state; see ``RepositoryStateDsl``.
    /// - Returns: The fetch time written, if any, and the save error, if `saveCache` threw.
    @discardableResult
    public static func initState<DataSource: RepositoryDataSource>(
        repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) -> SetValues {
        TellerRepository<DataSource>.testing.initState(repository: repository, requirements: requirements, more: more)
    }

    /// ``TellerRepositoryTesting/initStateAsync(repository:requirements:onComplete:more:)``:
    /// sets up `repository` for `requirements` on its background scheduler and then calls
    /// `onComplete` there.
    ///
    /// - Parameters:
    ///   - repository: The repository to set up; its `requirements` are left as they are.
    ///   - requirements: The requirements whose state is set.
    ///   - onComplete: Called once, on the background scheduler, with what was written (and the
    ///     save error, if `saveCache` threw).
    ///   - more: Describes the state; see ``RepositoryStateDsl``.
    public static func initStateAsync<DataSource: RepositoryDataSource>(
        repository: TellerRepository<DataSource>,
        requirements: DataSource.Requirements,
        onComplete: @escaping @Sendable (SetValues) -> Void,
        more: (inout RepositoryStateDsl<DataSource.FetchResult>) -> Void = { _ in }
    ) {
        TellerRepository<DataSource>.testing.initStateAsync(
            repository: repository,
            requirements: requirements,
            onComplete: onComplete,
            more: more
        )
    }
}
