import Foundation
import TellerRx

/// A stand-in for a GitHub-like server, inside this process: 25 repos in pages of 10, each
/// answer after a realistic delay, and an error switch that makes it fail like an overloaded
/// server. It takes the user's stars too (`s`), which it applies to its data and keeps in a
/// file of its own, as a real server keeps them across the app's restarts.
/// No network needed.
final class SimulatedAPI: ReposAPI, @unchecked Sendable {
    // @unchecked: the mutable properties are only touched under `lock`.
    static let pageSize = 10

    /// How long each answer takes, in milliseconds (a random value in this range).
    private let latency: ClosedRange<Int>
    private let timers = ConcurrentDispatchQueueScheduler(qos: .utility)
    private let lock = NSLock()
    private var failing: Bool
    /// Requests still to fail before the server answers again (`--fail-requests`).
    private var failuresLeft: Int
    /// Whether the next star is refused (`x`).
    private var refusesNextStar = false
    /// Where the stars taken are kept; `nil` keeps them in memory.
    private let starsFile: URL?
    /// The ids of the repos the user starred.
    private var starred: Set<Int>

    init(latency: ClosedRange<Int>, failing: Bool, failingRequests: Int = 0, starsFile: URL? = nil) {
        self.latency = latency
        self.failing = failing
        failuresLeft = failingRequests
        self.starsFile = starsFile
        // No file yet (or an unreadable one) is a server nobody starred anything on.
        starred = starsFile.flatMap { try? JSONDecoder().decode(Set<Int>.self, from: Data(contentsOf: $0)) } ?? []
    }

    var summary: String {
        let delay = latency.count == 1 ? "\(latency.lowerBound) ms" : "\(latency.lowerBound)–\(latency.upperBound) ms"
        return "simulated server (\(Self.catalog.count) repos, pages of \(Self.pageSize), \(delay) per request)"
    }

    /// Turns the error switch on or off and returns its new position.
    func toggleFailing() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        failing.toggle()
        return failing
    }

    /// Makes the server refuse the next star it is sent, as a server refuses an edit it does not
    /// allow (HTTP 403).
    func refuseNextStar() {
        lock.lock()
        defer { lock.unlock() }
        refusesNextStar = true
    }

    /// Stars repo `repoID` for the user, after the same latency as a page; starring it again
    /// changes nothing. Fails with `APIError.simulatedOutage` while the error switch is on
    /// (`--fail-requests` counts pages only), or `APIError.starRefused` after `refuseNextStar()`.
    func star(repoID: Int) -> Single<Void> {
        Single<Int>.timer(.milliseconds(Int.random(in: latency)), scheduler: timers)
            .map { [self] _ in
                lock.lock()
                defer { lock.unlock() }
                if failing { throw APIError.simulatedOutage }
                if refusesNextStar {
                    refusesNextStar = false
                    throw APIError.starRefused
                }
                guard starred.insert(repoID).inserted else { return }
                // The file only carries the stars over to the next run: without it they still count.
                if let starsFile { try? JSONEncoder().encode(starred).write(to: starsFile, options: .atomic) }
            }
    }

    func repos(page number: Int) -> Single<ReposPage> {
        // The delay is a timer, not a sleeping thread: disposing the Single (Teller does when
        // nobody waits any more) cancels it.
        Single<Int>.timer(.milliseconds(Int.random(in: latency)), scheduler: timers)
            .map { [self] _ in try answer(page: number) }
    }

    private func answer(page number: Int) throws -> ReposPage {
        lock.lock()
        let failing = self.failing || failuresLeft > 0
        failuresLeft = max(failuresLeft - 1, 0)
        let starred = self.starred
        lock.unlock()
        if failing { throw APIError.simulatedOutage }
        let start = min((number - 1) * Self.pageSize, Self.catalog.count)
        let end = min(start + Self.pageSize, Self.catalog.count)
        let repos = Self.catalog[start..<end].map { starred.contains($0.id) ? $0.starred() : $0 }
        return ReposPage(repos: repos, areMorePages: end < Self.catalog.count)
    }

    /// Everything the server has, most starred first.
    private static let catalog: [Repo] = [
        ("teller-ios", 1_204, "Swift"), ("teller-android", 1_187, "Kotlin"), ("rx-playground", 976, "Swift"),
        ("offline-first-notes", 842, "Swift"), ("json-feed-reader", 733, "Swift"), ("dotfiles", 701, nil),
        ("pagination-demo", 655, "Kotlin"), ("tiny-http", 598, "Go"), ("cache-age-badge", 544, "TypeScript"),
        ("retry-with-backoff", 512, "Rust"), ("swift-snapshot-kit", 487, "Swift"), ("moya-recipes", 455, "Swift"),
        ("sqlite-observer", 431, "C"), ("pull-to-refresh", 402, "Swift"), ("widget-gallery", 377, "Swift"),
        ("release-notes-bot", 351, "Python"), ("linux-swift-ci", 322, "Shell"), ("color-tokens", 298, "CSS"),
        ("markdown-lint-rules", 270, "JavaScript"), ("pager-indicator", 244, "Kotlin"),
        ("keychain-lite", 219, "Swift"), ("empty-state-views", 187, "Swift"), ("rss-to-json", 151, "Go"),
        ("talk-slides", 96, nil), ("hello-teller", 12, "Swift"),
    ].enumerated().map { index, repo in
        Repo(id: 1_000 + index, name: repo.0, stars: repo.1, language: repo.2)
    }
}
