import Foundation
import Teller
import TellerRx
import TellerTestSupport

// The app code of the paging example in TestingYourApp.md: a paged list of repos whose footer
// shows a spinner, a retry button, or nothing.

struct ReposPagingRequirements: PagingRepositoryRequirements {
    let pageNumber: Int
}

/// A paging data source without storage or network; the example only needs its types.
final class ReposPagingDataSource: PagingRepositoryDataSource {
    typealias PagingCache = [Repo]
    typealias Requirements = ReposRepositoryRequirements
    typealias PagingRequirements = ReposPagingRequirements
    typealias NextPageRequirements = Void
    typealias PagingFetchResult = [Repo]
    typealias FetchError = any Error

    let maxAgeOfCache = Period(unit: 5, component: .hour)

    func getNextPagePagingRequirements(
        currentPagingRequirements: ReposPagingRequirements,
        nextPageRequirements: Void?
    ) -> ReposPagingRequirements {
        ReposPagingRequirements(pageNumber: currentPagingRequirements.pageNumber + 1)
    }

    func persistOnlyFirstPage(requirements: ReposRepositoryRequirements) {}

    func deleteCache(_ requirements: ReposRepositoryRequirements) {}

    func fetchFreshCache(
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) -> Single<FetchResponse<FetchResult, any Error>> {
        .just(.success(PagedFetchResponse(areMorePages: false, nextPageRequirements: nil, fetchResponse: [])))
    }

    func saveCache(
        _ cache: [Repo],
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) throws {}

    func observeCache(
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) -> Observable<[Repo]> {
        .just([])
    }

    func isCacheEmpty(
        _ cache: [Repo],
        requirements: ReposRepositoryRequirements,
        pagingRequirements: ReposPagingRequirements
    ) -> Bool {
        cache.isEmpty
    }
}

/// What the list shows below its last row.
enum ListFooter: Equatable {
    case hidden
    case spinner
    case retry
}

/// The view model the paging example injects `TellerPagingRepositoryMock` into.
final class ReposListViewModel {
    private let repository: TellerPagingRepository<ReposPagingDataSource>

    init(repository: TellerPagingRepository<ReposPagingDataSource>) {
        self.repository = repository
    }

    func show(username: String) {
        repository.requirements = ReposRepositoryRequirements(username: username)
    }

    func footer() -> Observable<ListFooter> {
        repository.observe().map { state in
            guard let paged = state.cache else { return .hidden }
            if paged.nextPageError != nil { return .retry }
            return paged.isLoadingNextPage ? .spinner : .hidden
        }
    }

    func scrolledToTheEnd() {
        repository.goToNextPage()
    }
}
