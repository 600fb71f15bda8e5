import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

// The README's guide "Paging endless lists": its data source verbatim (made `private` so the
// names stay in this file), and its usage snippets in functions (the functions and their
// parameters are around the snippets). The snippets' `print` is the recording function passed in.

private typealias ReposRequirements = GuideReposRequirements

private struct ReposPage: PagingRepositoryRequirements {
    let number: Int
}

private final class PagedReposDataSource: PagingRepositoryDataSource {
    typealias PagingCache = [String]  // every page so far, as observe() shows it
    typealias Requirements = ReposRequirements  // which list
    typealias PagingRequirements = ReposPage  // which page of it
    typealias NextPageRequirements = Void  // what a page tells the next fetch: nothing here
    typealias PagingFetchResult = [String]  // one fetched page
    typealias FetchError = any Error

    static let pageSize = 2
    let maxAgeOfCache = Period(unit: 5, component: .hour)
    private let saved = BehaviorSubject<[String]>(value: [])  // your database

    func getNextPagePagingRequirements(currentPagingRequirements: ReposPage, nextPageRequirements: Void?) -> ReposPage {
        ReposPage(number: currentPagingRequirements.number + 1)
    }

    func fetchFreshCache(
        requirements: ReposRequirements,
        pagingRequirements: ReposPage
    )
        -> Single<FetchResponse<FetchResult, any Error>>
    {
        // Your network call goes here; this one serves five repos, two per page.
        let all = (1...5).map { "repo \($0)" }
        let page = Array(all.dropFirst((pagingRequirements.number - 1) * Self.pageSize).prefix(Self.pageSize))
        let areMorePages = pagingRequirements.number * Self.pageSize < all.count
        return .just(
            .success(PagedFetchResponse(areMorePages: areMorePages, nextPageRequirements: nil, fetchResponse: page))
        )
    }

    func saveCache(_ page: [String], requirements: ReposRequirements, pagingRequirements: ReposPage) throws {
        saved.onNext(try saved.value() + page)  // append: pages build on each other
    }

    func deleteCache(_ requirements: ReposRequirements) {
        saved.onNext([])  // right before a fresh first page is saved
    }

    func persistOnlyFirstPage(requirements: ReposRequirements) {
        let all = (try? saved.value()) ?? []
        saved.onNext(Array(all.prefix(Self.pageSize)))  // when requirements are set
    }

    func observeCache(requirements: ReposRequirements, pagingRequirements: ReposPage) -> Observable<[String]> {
        saved.asObservable()
    }

    func isCacheEmpty(_ cache: [String], requirements: ReposRequirements, pagingRequirements: ReposPage) -> Bool {
        cache.isEmpty
    }
}

/// The first line of the README's usage snippet, compiled only: it runs on `Teller.shared`.
private func makePagingRepositorySnippet() -> TellerPagingRepository<PagedReposDataSource> {
    let repository = TellerPagingRepository(
        dataSource: PagedReposDataSource(),
        firstPageRequirements: ReposPage(number: 1)
    )
    return repository  // around the snippet
}

/// The rest of the usage snippet.
private func observePagesSnippet(
    _ repository: TellerPagingRepository<PagedReposDataSource>,
    disposeBag: DisposeBag,
    print: @escaping @Sendable (Any) -> Void
) {
    repository.requirements = ReposRequirements(username: "octocat")
    repository.observe()
        .subscribe(onNext: { state in
            guard let paged = state.cache else { return }  // no cache, empty, or not read yet
            var footer = ""
            if let error = paged.nextPageError {
                footer = " | couldn't load more: \(error), tap to retry"
            } else if paged.isLoadingNextPage {
                footer = " | loading more…"
            } else if paged.areMorePages {
                footer = " | more below"
            }
            print("\(paged.cache)\(footer)")
        })
        .disposed(by: disposeBag)
}

/// The next-page and pull-to-refresh snippet, one line each.
private func nextPageSnippet(_ repository: TellerPagingRepository<PagedReposDataSource>) {
    repository.goToNextPage()
}

private func pullToRefreshSnippet(
    _ repository: TellerPagingRepository<PagedReposDataSource>,
    disposeBag: DisposeBag
) throws {
    try repository.refresh(force: true).subscribe().disposed(by: disposeBag)
}

@Suite struct ReadmePagingGuideTests {
    let env = VirtualTeller()

    @Test func pagesThroughFiveReposTwoAtATimeAndPullToRefreshStartsOver() {
        _ = makePagingRepositorySnippet  // compiled, not run
        let printed = PrintedLines(clock: { [scheduler = env.scheduler] in scheduler.clock })
        let repository = TellerPagingRepository(
            dataSource: PagedReposDataSource(),
            firstPageRequirements: ReposPage(number: 1),
            teller: env.teller
        )
        let disposeBag = DisposeBag()
        env.scheduler.scheduleAt(100) { observePagesSnippet(repository, disposeBag: disposeBag, print: printed.record) }
        env.scheduler.scheduleAt(200) { nextPageSnippet(repository) }
        env.scheduler.scheduleAt(300) { nextPageSnippet(repository) }
        env.scheduler.scheduleAt(400) { nextPageSnippet(repository) }  // no more pages: ignored
        env.scheduler.scheduleAt(500) { try? pullToRefreshSnippet(repository, disposeBag: disposeBag) }
        withExtendedLifetime(repository) { env.scheduler.start() }

        let lines = printed.value
        #expect(
            Array(lines.prefix(5)) == [
                #"103: ["repo 1", "repo 2"] | more below"#,
                #"201: ["repo 1", "repo 2"] | loading more…"#,
                #"204: ["repo 1", "repo 2", "repo 3", "repo 4"] | more below"#,
                #"301: ["repo 1", "repo 2", "repo 3", "repo 4"] | loading more…"#,
                #"304: ["repo 1", "repo 2", "repo 3", "repo 4", "repo 5"]"#,
            ]
        )
        // Nothing at 400: the last page said there are no more. The refresh at 500 shows the pages
        // while it runs, then starts over from the new first page.
        #expect(lines.dropFirst(5).allSatisfy { $0.hasPrefix("50") })
        #expect(lines.last == #"503: ["repo 1", "repo 2"] | more below"#)
        #expect(repository.pagingRequirements == ReposPage(number: 1))
    }
}
