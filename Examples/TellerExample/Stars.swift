import Foundation
import Teller
import TellerRx

/// The edit `s` makes: star one repo the user has not starred. It is what the outbox's journal keeps, so it holds what
/// the server needs (the id) and what the timeline prints (the name), nothing else.
struct StarEdit: Codable, Sendable, Equatable {
    /// The outbox kind whose handler sends stars.
    static let kind = "starRepo"

    let repoID: Int
    let repoName: String

    /// The star edits among `writes`; writes of other kinds, or that this version cannot read,
    /// are left out.
    static func decoded(from writes: [OutboxRecord]) -> [StarEdit] {
        writes.filter { $0.kind == kind }.compactMap { try? JSONDecoder().decode(StarEdit.self, from: $0.payload) }
    }

    /// `repos` as the user expects to see them with `edits` made: each starred repo marked as
    /// the user's, with one star more unless the server already counted it.
    static func applying(_ edits: [StarEdit], to repos: [Repo]) -> [Repo] {
        guard !edits.isEmpty else { return repos }
        let starred = Set(edits.map(\.repoID))
        return repos.map { starred.contains($0.id) ? $0.starred() : $0 }
    }

    /// Registers the handler that sends stars to `server`: a refusal is final (the edit is rolled
    /// back), any other failure (the server is down) is retried when the network is back.
    static func registerSender(on outbox: TellerOutbox, server: SimulatedAPI) {
        outbox.register(kind: kind) { record in
            guard let edit = decoded(from: [record]).first else {
                // A payload this version cannot read never will be: refuse it rather than retry.
                return .just(.rejected(APIError.unreadableEdit))
            }
            // A star is idempotent (starring a starred repo changes nothing), so a star sent twice
            // after a crash needs no idempotency key.
            return server.star(repoID: edit.repoID)
                .map { OutboxSendOutcome.sent() }
                .catch { error in
                    if case APIError.starRefused = error { return .just(.rejected(error)) }
                    return .just(.retryableFailure(error))
                }
        }
    }
}
