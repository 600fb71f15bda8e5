import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

@testable import Teller

// The code of Sources/Teller/Teller.docc/OfflineWrites.md, as written there (`private` added,
// so the names cannot clash with other tests'), run on virtual time against the README guide's
// fake server.

private typealias PostsAPI = ReadmeOutboxGuideTests.NotesAPI

private struct PostEdit: Codable, Sendable {
    let authorID: Int
    let postID: Int
    let text: String
}

private func registerHandlers(on outbox: TellerOutbox, api: PostsAPI) {
    outbox.register(kind: "editPost") { record in
        let authorID: Int
        do {
            authorID = try JSONDecoder().decode(PostEdit.self, from: record.payload).authorID
        } catch {
            return .just(.rejected(error))  // a payload this version cannot read, it never will
        }
        return api.send(record.payload, idempotencyKey: record.idempotencyKey)
            .map { OutboxSendOutcome.sent(tagsUnder: ["users/\(authorID)"]) }
            .catch { error in .just(api.isPermanent(error) ? .rejected(error) : .retryableFailure(error)) }
    }
}

/// Compiled, never run: its outbox would use this program's own journal.
private func launchSnippet(teller: Teller, api: PostsAPI) {
    let outbox = TellerOutbox(teller: teller)
    registerHandlers(on: outbox, api: api)
}

private func enqueueSnippet(outbox: TellerOutbox) throws {
    let edit = PostEdit(authorID: 42, postID: 7, text: "Fixed a typo")
    try outbox.enqueue(kind: "editPost", payload: edit, tag: "users/42/posts/7", scope: "posts/7")
}

private struct Connectivity {
    let teller: Teller
    let outbox: TellerOutbox

    func networkChanged(isReachable: Bool) {
        if isReachable {
            teller.networkDidBecomeAvailable()  // sends again, and refreshes what is too old
        } else {
            outbox.networkDidBecomeUnavailable()  // new sends wait; those under way finish
        }
    }
}

private func showRejections(of outbox: TellerOutbox, alert: (String) -> Void) {
    for rejection in outbox.rejections {
        alert("Your edit could not be saved: \(rejection.error)")
        outbox.acknowledge(rejectionOf: rejection.record.id)
    }
}

@Suite struct OfflineWritesArticleTests {
    let env = VirtualTeller()
    let journal = JournalFixture()

    private func outbox(api: PostsAPI) -> TellerOutbox {
        let outbox = TellerOutbox(teller: env.teller, journalURL: journal.url)
        registerHandlers(on: outbox, api: api)
        return outbox
    }

    @Test func everySwiftSnippetOfTheArticleIsInThisFile() throws {
        let article = try DocCArticle(module: "Teller", name: "OfflineWrites")
        #expect(article.swiftSnippets.count == 5)
        #expect(try article.snippetsMissing(fromFile: #filePath) == [])
    }

    @Test func anEditMadeOfflineIsSentWhenTheNetworkReturnsAndInvalidatesItsAuthorsBranch() throws {
        defer { journal.removeFolder() }
        for tag in ["users/42/posts/7", "users/42/likes", "users/420/posts/7"] {
            env.store.setMetadata(FetchMetadata(lastFetched: env.date(0)), forTag: tag)
        }
        let api = PostsAPI(scheduler: env.scheduler)
        api.isOnline.withLock { $0 = true }
        let outbox = outbox(api: api)
        let connectivity = Connectivity(teller: env.teller, outbox: outbox)

        connectivity.networkChanged(isReachable: false)
        try enqueueSnippet(outbox: outbox)
        env.scheduler.advanceTo(100)
        #expect(api.accepted.value.isEmpty)
        #expect(outbox.pending.map(\.scope) == ["posts/7"])

        connectivity.networkChanged(isReachable: true)
        env.scheduler.start()
        #expect(api.accepted.value.count == 1)
        #expect(outbox.pending.isEmpty)
        #expect(env.teller.storedMetadata(tag: "users/42/posts/7")?.isInvalidated == true)
        #expect(env.teller.storedMetadata(tag: "users/42/likes")?.isInvalidated == true)
        #expect(env.teller.storedMetadata(tag: "users/420/posts/7")?.isInvalidated == false)
    }

    @Test func aRefusedEditIsShownAfterARelaunchAndGoneOnceAcknowledged() throws {
        defer { journal.removeFolder() }
        let api = PostsAPI(scheduler: env.scheduler)
        api.isOnline.withLock { $0 = true }
        api.refuses.withLock { $0 = true }
        var first: TellerOutbox? = outbox(api: api)
        if let first { try enqueueSnippet(outbox: first) }
        env.scheduler.start()
        first = nil

        let relaunched = outbox(api: api)
        var alerts: [String] = []
        showRejections(of: relaunched) { alerts.append($0) }
        #expect(alerts == ["Your edit could not be saved: refused"])
        #expect(relaunched.rejections.isEmpty)
        #expect(outbox(api: api).rejections.isEmpty)
        #expect(api.accepted.value.isEmpty)
    }
}
