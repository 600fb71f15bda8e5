import Foundation
import TellerRx

#if canImport(FoundationNetworking)
// On Linux, URLSession lives in its own module.
import FoundationNetworking
#endif

/// Fetches repos from an HTTP endpoint that answers with a JSON array of repos (see
/// `sample-repos.json`), such as a file served by `python3 -m http.server`.
///
/// Paging works the way GitHub's API does it: page 1 is the URL as given, page N adds
/// `page=N` to its query, and more pages exist when the answer has a `Link` header with
/// `rel="next"`. A plain file has no such header, so it is a list of one page.
struct HTTPReposAPI: ReposAPI {
    let url: URL

    var summary: String {
        "HTTP endpoint \(url.absoluteString)"
    }

    func repos(page number: Int) -> Single<ReposPage> {
        let url = pageURL(number)
        let request = Self.request(url)
        // An async call wrapped in a Single: disposing the Single cancels the task, and with it
        // the request.
        return Single.create {
            let data: Data
            let response: URLResponse
            do {
                (data, response) = try await URLSession.shared.data(for: request)
            } catch {
                throw APIError.unreachable(url: url, reason: Self.reason(error))
            }
            return try Self.page(from: data, response: response, url: url)
        }
    }

    private static func request(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    private func pageURL(_ number: Int) -> URL {
        guard number > 1, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "page", value: "\(number)")]
        return components.url ?? url
    }

    private static func page(from data: Data, response: URLResponse, url: URL) throws -> ReposPage {
        let http = response as? HTTPURLResponse
        if let status = http?.statusCode, !(200..<300).contains(status) {
            throw APIError.httpStatus(status, url: url)
        }
        let repos: [Repo]
        do {
            repos = try JSONDecoder().decode([Repo].self, from: data)
        } catch {
            throw APIError.notRepos(url: url, reason: reason(error))
        }
        let link = http?.value(forHTTPHeaderField: "Link") ?? ""
        return ReposPage(repos: repos, areMorePages: link.contains("rel=\"next\""))
    }

    /// A short reason for the timeline rather than Foundation's long error descriptions.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case let error as URLError:
            switch error.code {
            case .cannotConnectToHost: "connection refused: is the server running?"
            case .timedOut: "timed out"
            case .cannotFindHost: "unknown host"
            case .notConnectedToInternet: "offline"
            default: "URLError \(error.code.rawValue)"
            }
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing key \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        case DecodingError.valueNotFound(_, let context): context.debugDescription
        default: "\(error)"
        }
    }
}
