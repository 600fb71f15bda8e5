import Dispatch
import Foundation
import Teller
import TellerRx
import TellerTesting
import Testing

// The README's paging guide as a new Xcode 26 app target compiles it.

private struct ReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

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

private func pagingStatements(disposeBag: DisposeBag) throws {
    let repository = TellerPagingRepository(
        dataSource: PagedReposDataSource(),
        firstPageRequirements: ReposPage(number: 1)
    )
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
    repository.goToNextPage()

    try repository.refresh(force: true).subscribe().disposed(by: disposeBag)
}
