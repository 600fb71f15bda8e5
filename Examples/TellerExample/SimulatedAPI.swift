import Foundation
import TellerRx

/// A stand-in for a GitHub-like server, inside this process: 25 repos in pages of 10, each
/// answer after a realistic delay, and an error switch that makes it fail like an overloaded
/// server. No network needed.
final class SimulatedAPI: ReposAPI, @unchecked Sendable {
    // @unchecked: `failing` is only touched under `lock`.
    static let pageSize = 10

    /// How long each answer takes, in milliseconds (a random value in this range).
    private let latency: ClosedRange<Int>
    private let timers = ConcurrentDispatchQueueScheduler(qos: .utility)
    private let lock = NSLock()
    private var failing: Bool
    /// Requests still to fail before the server answers again (`--fail-requests`).
    private var failuresLeft: Int

    init(latency: ClosedRange<Int>, failing: Bool, failingRequests: Int = 0) {
        self.latency = latency
        self.failing = failing
        failuresLeft = failingRequests
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
        lock.unlock()
        if failing { throw APIError.simulatedOutage }
        let start = min((number - 1) * Self.pageSize, Self.catalog.count)
        let end = min(start + Self.pageSize, Self.catalog.count)
        return ReposPage(repos: Array(Self.catalog[start..<end]), areMorePages: end < Self.catalog.count)
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
