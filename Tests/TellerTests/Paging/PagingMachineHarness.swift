import Foundation
import TellerRx
import TellerTestSupport

@testable import Teller

/// Drives a paging repository's machine by hand, without threads: each call feeds one input to
/// `handle(_:now:)` and returns its actions as short lines ("trim", "join 1", "emit cache [1]
/// age 0, more"…), so a test reads like the table of what happened. It remembers the ids the
/// machine hands out (the flight wait, the trim's session, the next page's fetch) for the inputs
/// that answer them, and numbers refresh calls in the order they are made. Log actions are left
/// out.
struct PagingMachineHarness {
    typealias DataSource = PageNumberDataSource
    typealias Machine = PagingStateMachine<DataSource>
    typealias Progress = PagingExtension<DataSource>.FirstPageProgress

    static let octocat = TestRequirements(username: "octocat")

    private(set) var machine: Machine
    /// Seconds since the epoch; ages in states are printed in these seconds.
    var now = 10_000
    private(set) var trimSession = 0
    private(set) var nextPageID = 0
    /// The machine's number for the cache subscription started last.
    private(set) var observation = 0
    /// The flight wait joined last.
    private(set) var flight: UInt64 = 0
    let calls = LabeledCalls()

    /// A machine with one observer (a screen showing the list): the cache is read for observers
    /// only.
    init(automaticallyRefresh: Bool = true) {
        machine = Machine(
            configuration: .init(
                automaticallyRefresh: automaticallyRefresh,
                maxAgeOfCache: Period(unit: 1, component: .hour)
            ),
            extension: PagingExtension<DataSource>(firstPage: PageNumber(number: 1))
        )
        _ = machine.handle(.observerAdded(Machine.Observer(id: 1, observer: AnyObserver { _ in })), now: Self.date(now))
    }

    /// Metadata of a first page fetched at `fetched` (seconds) that said whether more pages exist.
    static func stored(_ fetched: Int, more: Bool) -> TypedStoredFetch<Progress> {
        TypedStoredFetch(lastFetched: date(fetched), extra: Progress(areMorePages: more))
    }

    static func date(_ seconds: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// The page `number` as fetched: its one item is its number.
    static func page(_ number: Int, more: Bool) -> NextPageOutcome<DataSource> {
        .fetched(
            PageNumber(number: number),
            PagedFetchResponse(areMorePages: more, nextPageRequirements: nil, fetchResponse: ["\(number)"]),
            mark: 0
        )
    }

    var pagingRequirements: Int {
        machine.ext.pagingRequirements.number
    }

    var areMorePages: Bool {
        machine.ext.areMorePagesAvailable
    }

    // MARK: Inputs

    mutating func setRequirements(_ stored: TypedStoredFetch<Progress>?) -> [String] {
        send(.setRequirements(Self.octocat, stored: stored))
    }

    /// A refresh by a new call, whose number is returned with the actions.
    mutating func refresh(force: Bool = true) -> (waiter: Int, actions: [String]) {
        let (label, call) = calls.make(.refresh(force: force))
        return (label, send(.refresh([call])))
    }

    mutating func trimmed() -> [String] {
        send(.extra(.trimmed(session: trimSession)))
    }

    mutating func saving() -> [String] {
        send(.flightSaving(flight))
    }

    /// The flight joined last ended; `stored` is the metadata afterwards.
    mutating func finished(
        _ result: RefreshResult,
        stored: TypedStoredFetch<Progress>?,
        saved: Progress? = nil
    ) -> [String] {
        send(.flightFinished(flight, result: result, stored: stored, saved: saved))
    }

    /// The cache emits pages `1…pages`.
    mutating func emitted(pages: Int) -> [String] {
        let cache = pages == 0 ? [] : (1...pages).map(String.init)
        return send(.cacheEmitted(observation: observation, cache: cache, isEmpty: cache.isEmpty))
    }

    mutating func goToNextPage() -> [String] {
        send(.extra(.goToNextPage))
    }

    mutating func nextPageFetched(_ outcome: NextPageOutcome<DataSource>) -> [String] {
        send(.extra(.nextPageFetched(id: nextPageID, outcome)))
    }

    mutating func nextPageSaved(error: (any Error)? = nil) -> [String] {
        send(.extra(.nextPageSaved(id: nextPageID, error: error)))
    }

    mutating func metadataChanged(_ stored: TypedStoredFetch<Progress>?) -> [String] {
        send(.metadataChanged(tag: Self.octocat.tag, stored: stored))
    }

    mutating func send(_ input: Machine.Input) -> [String] {
        let actions = machine.handle(input, now: Self.date(now))
        return actions.compactMap { describe($0) }
    }

    // MARK: Descriptions

    private mutating func describe(_ action: Machine.Action) -> String? {
        switch action {
        case .emit(let state):
            return "emit " + Self.summary(state)
        case .emitSignedOut:
            return "signedOut"
        case .observeCache(_, let page, let observation):
            self.observation = observation
            return "observe page \(page.number)"
        case .stopObservingCache:
            return "stopObserving"
        case .joinFlight(_, let flight):
            self.flight = flight
            return "join"
        case .leaveFlight:
            return "leaveFlight"
        case .respond(let responded, let result):
            return "respond \(calls.describe(responded)) \(result)"
        case .complete:
            return "complete"
        case .greet:
            return nil
        case .startRefreshTimer, .stopRefreshTimer, .log, .logs, .quiet:
            return nil
        case .extra(.trimCache(_, let session)):
            trimSession = session
            return "trim"
        case .extra(.endSession):
            return "endSession"
        case .extra(.fetchNextPage(let id, _, let current, _)):
            nextPageID = id
            return "fetchNextPage after page \(current.number)"
        case .extra(.cancelNextPage):
            return "cancelNextPage"
        case .extra(.saveNextPage(_, _, let page, _, _)):
            return "saveNextPage page \(page.number)"
        }
    }

    /// A state as `StateSummary` prints it, with the paging flags after it.
    static func summary(_ state: CacheState<PagedCache<[String]>>) -> String {
        var parts = [StateSummary(state.convert { $0?.cache }).text]
        if let paged = state.cache {
            if paged.areMorePages { parts.append("more") }
            if paged.isLoadingNextPage { parts.append("loadingNextPage") }
            if let error = paged.nextPageError { parts.append("nextPageError \(error)") }
        }
        return parts.joined(separator: ", ")
    }
}
