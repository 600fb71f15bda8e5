import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The paging examples of TestingYourApp.md, compiled and run as written there. The app code
/// they test is in Support/ReposPagingExampleApp.swift.
@Suite struct ReposListViewModelTests {
    let repository = TellerPagingRepositoryMock(
        dataSource: ReposPagingDataSource(),
        firstPageRequirements: ReposPagingRequirements(pageNumber: 1)
    )
    let requirements = ReposPagingDataSource.Requirements(username: "octocat")

    @Test func showsASpinnerWhileTheNextPageLoads() throws {
        let loading: CacheState<PagedCache<[Repo]>> = CacheState.testing.pagedCache(
            requirements: requirements,
            lastTimeFetched: Date()
        ) {
            $0.cache([Repo(id: 1, name: "teller")])
            $0.loadingNextPage()
        }
        repository.observeClosure = { .just(loading) }
        let viewModel = ReposListViewModel(repository: repository)

        #expect(try viewModel.footer().toBlocking(timeout: 1).first() == .spinner)
    }

    @Test func offersARetryWhenTheNextPageFailed() throws {
        let failed: CacheState<PagedCache<[Repo]>> = CacheState.testing.pagedCache(
            requirements: requirements,
            lastTimeFetched: Date()
        ) {
            $0.cache([Repo(id: 1, name: "teller")])
            $0.failedNextPage(error: URLError(.notConnectedToInternet))
        }
        repository.observeClosure = { .just(failed) }
        let viewModel = ReposListViewModel(repository: repository)

        #expect(try viewModel.footer().toBlocking(timeout: 1).first() == .retry)
    }

    @Test func scrollingToTheEndAsksForTheNextPage() {
        let viewModel = ReposListViewModel(repository: repository)

        viewModel.show(username: "octocat")
        viewModel.scrolledToTheEnd()

        #expect(repository.requirementsInvocations.last??.username == "octocat")
        #expect(repository.goToNextPageCallsCount == 1)
    }
}
