import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport

// The README's guides build on its Quick start's `ReposRequirements` and `ReposDataSource`. These
// are the same types (same members, same cache type), except that a test decides what the fetch
// returns and counts the fetches. Each guide test file names them as the README does with
// private typealiases.

/// The Quick start's `ReposRequirements`.
struct GuideReposRequirements: RepositoryRequirements {
    let username: String
    var tag: String { "Repos for \(username)" }
}

/// The Quick start's `ReposDataSource`, with a fetch the test controls and counts.
final class GuideReposDataSource: RepositoryDataSource, Sendable {
    typealias Cache = [String]
    typealias Requirements = GuideReposRequirements
    typealias FetchResult = [String]
    typealias FetchError = any Error
    typealias Fetch = @Sendable () -> Single<FetchResponse<[String], any Error>>

    let maxAgeOfCache = Period(unit: 5, component: .hour)
    /// The stored repos; write to it to act like another part of the app changing the database.
    let saved = BehaviorSubject<[String]>(value: [])
    private let fetch: Locked<Fetch>
    private let fetches = Locked(0)

    /// - Parameter fetch: What each fetch returns; by default the Quick start's two repos, at once.
    init(fetch: @escaping Fetch = { .just(.success(["teller", "teller-android"])) }) {
        self.fetch = Locked(fetch)
    }

    /// How many fetches Teller started.
    var fetchCount: Int {
        fetches.value
    }

    /// Changes what the next fetches return.
    func respond(with fetch: @escaping Fetch) {
        self.fetch.withLock { $0 = fetch }
    }

    func fetchFreshCache(requirements: GuideReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        fetches.withLock { $0 += 1 }
        return fetch.value()
    }

    func saveCache(_ cache: [String], requirements: GuideReposRequirements) throws {
        saved.onNext(cache)
    }

    func observeCache(requirements: GuideReposRequirements) -> Observable<[String]> {
        saved.asObservable()
    }

    func isCacheEmpty(_ cache: [String], requirements: GuideReposRequirements) -> Bool {
        cache.isEmpty
    }
}

/// Stands in for `print` in a README snippet: records each line, prefixed with the virtual time
/// when a scheduler is given, so a test can compare what the snippet printed with what the README
/// says it prints.
final class PrintedLines: Sendable {
    private let lines = Locked<[String]>([])
    private let clock: (@Sendable () -> Int)?

    init(clock: (@Sendable () -> Int)? = nil) {
        self.clock = clock
    }

    var value: [String] {
        lines.value
    }

    func record(_ item: Any) {
        let line = "\(item)"
        lines.withLock { $0.append(clock.map { "\($0()): \(line)" } ?? line) }
    }
}
