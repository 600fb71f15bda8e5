import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import Testing

/// Every data-source member runs on the scheduler its docs name, for both repository kinds, even
/// when `observeCache` emits on a queue of its own (as database observations do): `isCacheEmpty`
/// and `observeCache` on the UI scheduler, the fetch and the writes on the background one.
@Suite struct DataSourceMemberThreadTests {
    /// A plain data source whose observation emits on the "elsewhere" queue; it records which
    /// queue ran each member.
    final class PlainRecorder: RepositoryDataSource, Sendable {
        typealias Cache = [String]
        typealias Requirements = TestRequirements
        typealias FetchResult = [String]
        typealias FetchError = any Error

        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let inner = InMemoryDataSource()
        let calls = MemberCalls()
        let elsewhere: SerialDispatchQueueScheduler

        init(elsewhere: SerialDispatchQueueScheduler) {
            self.elsewhere = elsewhere
        }

        func fetchFreshCache(requirements: TestRequirements) -> Single<FetchResponse<[String], any Error>> {
            calls.record("fetchFreshCache")
            return .just(.success(["fetched"]))
        }

        func saveCache(_ cache: [String], requirements: TestRequirements) throws {
            calls.record("saveCache")
            try inner.saveCache(cache, requirements: requirements)
        }

        func observeCache(requirements: TestRequirements) -> Observable<[String]> {
            calls.record("observeCache")
            return inner.observeCache(requirements: requirements).observe(on: elsewhere)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements) -> Bool {
            calls.record("isCacheEmpty")
            return cache.isEmpty
        }
    }

    /// A paging data source whose observation emits on the "elsewhere" queue; it records which
    /// queue ran each member. Two pages exist on the server.
    final class PagingRecorder: PagingRepositoryDataSource, Sendable {
        typealias PagingCache = [String]
        typealias Requirements = TestRequirements
        typealias PagingRequirements = PageNumber
        typealias NextPageRequirements = Void
        typealias PagingFetchResult = [String]
        typealias FetchError = any Error

        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let inner = PageNumberDataSource()
        let calls = MemberCalls()
        let elsewhere: SerialDispatchQueueScheduler

        init(elsewhere: SerialDispatchQueueScheduler) {
            self.elsewhere = elsewhere
        }

        func getNextPagePagingRequirements(
            currentPagingRequirements: PageNumber,
            nextPageRequirements: Void?
        )
            -> PageNumber
        {
            calls.record("getNextPagePagingRequirements")
            return PageNumber(number: currentPagingRequirements.number + 1)
        }

        func fetchFreshCache(
            requirements: TestRequirements,
            pagingRequirements: PageNumber
        )
            -> Single<FetchResponse<PagedFetchResponse<[String], Void>, any Error>>
        {
            calls.record("fetchFreshCache")
            let number = pagingRequirements.number
            let page = PagedFetchResponse<[String], Void>(
                areMorePages: number < 2,
                nextPageRequirements: nil,
                fetchResponse: ["page \(number)"]
            )
            return .just(.success(page))
        }

        func persistOnlyFirstPage(requirements: TestRequirements) {
            calls.record("persistOnlyFirstPage")
            inner.persistOnlyFirstPage(requirements: requirements)
        }

        func deleteCache(_ requirements: TestRequirements) {
            calls.record("deleteCache")
            inner.deleteCache(requirements)
        }

        func saveCache(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) throws {
            calls.record("saveCache")
            try inner.saveCache(cache, requirements: requirements, pagingRequirements: pagingRequirements)
        }

        func observeCache(requirements: TestRequirements, pagingRequirements: PageNumber) -> Observable<[String]> {
            calls.record("observeCache")
            return inner.observeCache(requirements: requirements, pagingRequirements: pagingRequirements)
                .map { Array($0.prefix(pagingRequirements.number)) }
                .observe(on: elsewhere)
        }

        func isCacheEmpty(_ cache: [String], requirements: TestRequirements, pagingRequirements: PageNumber) -> Bool {
            calls.record("isCacheEmpty")
            return cache.isEmpty
        }
    }

    /// The data-source members called, each with the queue that ran it ("isCacheEmpty on ui").
    final class MemberCalls: Sendable {
        private let calls = Locked<[String]>([])

        var all: [String] {
            calls.value
        }

        func record(_ member: String) {
            let queue = LabelledQueues.current
            calls.withLock { $0.append("\(member) on \(queue)") }
        }
    }

    /// The calls made on a queue other than the documented one.
    private func misplaced(_ calls: [String]) -> [String] {
        let onUI: Set = ["observeCache", "isCacheEmpty"]
        return calls.filter { call in
            let parts = call.components(separatedBy: " on ")
            let expected = onUI.contains(parts[0]) ? "ui" : "background"
            return parts[1] != expected
        }
    }

    @Test func aPlainRepositoryCallsEachMemberOnItsDocumentedSchedulerWhateverQueueTheCacheEmitsOn() {
        let queues = LabelledQueues()
        let dataSource = PlainRecorder(elsewhere: queues.elsewhereScheduler)
        let repository = TellerRepository(dataSource: dataSource, teller: queues.teller())
        let shown = DispatchSemaphore(value: 0)
        let subscription = repository.observe().subscribe(onNext: { state in
            if state.cache == ["fetched"] { shown.signal() }
        })
        repository.requirements = TestRequirements(username: "octocat")
        #expect(shown.wait(timeout: .now() + 60) == .success)
        subscription.dispose()

        let calls = dataSource.calls.all
        #expect(Set(calls.map { $0.components(separatedBy: " on ")[0] }).count == 4, "\(calls)")
        #expect(misplaced(calls).isEmpty, "members run off their documented scheduler: \(misplaced(calls))")
    }

    @Test func aPagingRepositoryCallsEachMemberOnItsDocumentedSchedulerWhateverQueueTheCacheEmitsOn() {
        let queues = LabelledQueues()
        let dataSource = PagingRecorder(elsewhere: queues.elsewhereScheduler)
        let requirements = TestRequirements(username: "octocat")
        let repository = TellerPagingRepository(
            dataSource: dataSource,
            firstPageRequirements: PageNumber(number: 1),
            teller: queues.teller()
        )
        let firstPage = DispatchSemaphore(value: 0)
        let bothPages = DispatchSemaphore(value: 0)
        let subscription = repository.observe().subscribe(onNext: { state in
            switch state.cache?.cache {
            case ["page 1"]?: firstPage.signal()
            case ["page 1", "page 2"]?: bothPages.signal()
            default: break
            }
        })
        repository.requirements = requirements
        #expect(firstPage.wait(timeout: .now() + 60) == .success)
        repository.goToNextPage()
        #expect(bothPages.wait(timeout: .now() + 60) == .success)
        subscription.dispose()

        let calls = dataSource.calls.all
        let members = Set(calls.map { $0.components(separatedBy: " on ")[0] })
        let expected: Set = [
            "fetchFreshCache", "deleteCache", "saveCache", "observeCache", "isCacheEmpty",
            "getNextPagePagingRequirements",
        ]
        #expect(members.isSuperset(of: expected), "\(calls)")
        #expect(misplaced(calls).isEmpty, "members run off their documented scheduler: \(misplaced(calls))")
    }
}
