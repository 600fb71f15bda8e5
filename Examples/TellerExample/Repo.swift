import Foundation
import TellerRx

/// One repository. The JSON keys are a subset of what GitHub's API returns for a repo, so a
/// real `https://api.github.com/users/NAME/repos` answer decodes too (other keys are ignored).
struct Repo: Codable, Sendable, Equatable {
    let id: Int
    let name: String
    let stars: Int
    let language: String?
    /// Whether the user starred it (`s`); `nil`, as in GitHub's answer, for not.
    var isStarred: Bool? = nil

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case language
        case stars = "stargazers_count"
        case isStarred = "starred"
    }

    /// This repo starred by the user: one star more, unless it already had the user's. A star
    /// applied twice (sent, and then read back in the server's data) counts once.
    func starred() -> Repo {
        guard isStarred != true else { return self }
        return Repo(id: id, name: name, stars: stars + 1, language: language, isStarred: true)
    }
}

/// One page of repos as a server answers it.
struct ReposPage: Sendable {
    let repos: [Repo]
    /// Whether the server has a page after this one.
    let areMorePages: Bool
}

/// Where repos come from: the simulated server (`SimulatedAPI`) or an HTTP endpoint
/// (`HTTPReposAPI`). The data source only sees this, as an app's data source only sees its
/// API client.
protocol ReposAPI: Sendable {
    /// One line for the header, e.g. "simulated server (300–800 ms per request)".
    var summary: String { get }

    /// Fetches page `number` (the first page is 1). Fails with an `APIError`.
    func repos(page number: Int) -> Single<ReposPage>
}

/// Why a fetch failed, worded for the person watching the timeline.
enum APIError: Error, CustomStringConvertible {
    /// The simulated server's error switch is on (`e` or `--fail`).
    case simulatedOutage
    /// The server answered with a status other than 2xx.
    case httpStatus(Int, url: URL)
    /// The server could not be reached at all (down, wrong port, no network).
    case unreachable(url: URL, reason: String)
    /// The server answered, but not with a JSON array of repos.
    case notRepos(url: URL, reason: String)
    /// The simulated server refused a star (`x` asked it to refuse the next one).
    case starRefused
    /// An edit in the outbox that this version of the example cannot read.
    case unreadableEdit

    var description: String {
        switch self {
        case .simulatedOutage:
            "HTTP 503 from the simulated server (e turns its errors off)"
        case .httpStatus(let status, let url):
            "HTTP \(status) from \(url.absoluteString)"
        case .unreachable(let url, let reason):
            "cannot reach \(url.host ?? url.absoluteString)\(url.port.map { ":\($0)" } ?? "") (\(reason))"
        case .notRepos(let url, let reason):
            "\(url.absoluteString) did not answer with a JSON array of repos (\(reason))"
        case .starRefused:
            "HTTP 403 from the simulated server: star refused"
        case .unreadableEdit:
            "an edit this version cannot read"
        }
    }
}
