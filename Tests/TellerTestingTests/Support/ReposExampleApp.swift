import Foundation
import Teller
import TellerRx
import TellerTestSupport

// The app code the README's testing examples test ("YourApp"), written after the README's
// getting-started section: a requirements class, a `Repo` model, a data source and a view model.

/// The README's `ReposRequirements`, under the name its data source's typealias uses.
class ReposRepositoryRequirements: RepositoryRequirements {
    var tag: ReposRepositoryRequirements.Tag {
        "Repos for \(username)"
    }

    let username: String

    init(username: String) {
        self.username = username
    }
}

/// The README's model, plus `Equatable` so states of it can be compared.
struct Repo: Codable, Equatable {
    var id: Int!
    var name: String!
}

/// The README's data source, without the network call.
class ReposRepositoryDataSource: RepositoryDataSource {
    typealias Cache = [Repo]
    typealias Requirements = ReposRepositoryRequirements
    typealias FetchResult = [Repo]
    typealias FetchError = any Error

    var maxAgeOfCache: Period = Period(unit: 5, component: .hour)

    func fetchFreshCache(requirements: Requirements) -> Single<FetchResponse<FetchResult, FetchError>> {
        .just(FetchResponse.success(data: []))
    }

    func saveCache(_ fetchedData: Cache, requirements: Requirements) throws {}

    func observeCache(requirements: Requirements) -> Observable<Cache> {
        Observable.just([])
    }

    func isCacheEmpty(_ cache: Cache, requirements: Requirements) -> Bool {
        cache.isEmpty
    }
}

/// The view model the README's unit test injects the repository mock into.
final class ReposViewModel {
    private let reposRepository: TellerRepository<ReposRepositoryDataSource>

    init(reposRepository: TellerRepository<ReposRepositoryDataSource>) {
        self.reposRepository = reposRepository
    }

    func observeRepos() -> Observable<CacheState<[Repo]>> {
        reposRepository.observe()
    }

    func setReposToObserve(username: String) {
        reposRepository.requirements = ReposRepositoryDataSource.Requirements(username: username)
    }
}
