import Foundation
import Teller
import TellerRx
import TellerTesting
import Testing

/// The first page: fetched when requirements are set and on refresh, saved after `deleteCache`,
/// and a cache from earlier trimmed by `persistOnlyFirstPage` before it is first read.
@Suite struct PagingFirstPageTests {
    let env = VirtualTeller()
    let dataSource = PageNumberDataSource()
    let octocat = TestRequirements(username: "octocat")

    private func makeRepository(
        _ dataSource: PageNumberDataSource? = nil
    ) -> (TellerPagingRepository<PageNumberDataSource>, TestableObserver<CacheState<PagedCache<[String]>>>) {
        let repository = TellerPagingRepository(
            dataSource: dataSource ?? self.dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: env.teller
        )
        let states = env.scheduler.createObserver(CacheState<PagedCache<[String]>>.self)
        return (repository, states)
    }

    @Test func firstPageIsFetchedWhenRequirementsAreSetAndShownWithAreMorePages() {
        dataSource.respond(with: env.pageNumberServer([["a", "b"], ["c", "d"]]))
        let (repository, states) = makeRepository()
        env.scheduler.scheduleAt(100) {
            repository.requirements = octocat
            _ = repository.observe().subscribe(states)
        }
        withExtendedLifetime(repository) { env.scheduler.start() }
        #expect(
            states.timeline == [
                "101: noCache, firstFetch",
                "113: cache unread age 112, justFinishedFirstFetch",
                "115: cache [\"a\", \"b\"] age 112, more",
            ]
        )
        #expect(dataSource.log == ["fetch page 1", "delete", "save page 1", "observe page 1"])
        #expect(repository.pagingRequirements == PageNumber(number: 1))
        #expect(env.store.metadata(forTag: octocat.tag)?.paging?.areMorePages == true)
    }
}
