import Foundation
import Teller
@_spi(TellerInternals) import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// The README's "Offline writes: the outbox": its snippet compiled word for word, and the same
/// setup run on virtual time against a fake server, on a journal of the test's own.
@Suite struct ReadmeOutboxGuideTests {
    /// The app's network layer the snippet calls: it answers on virtual time, is unreachable
    /// until `isOnline`, and refuses edits while `refuses`.
    final class NotesAPI: Sendable {
        enum Failure: Error, Equatable {
            case offline
            case refused
        }

        let isOnline = Locked(false)
        let refuses = Locked(false)
        /// The payloads the server accepted, with their idempotency keys.
        let accepted = Locked<[(payload: Data, key: String)]>([])
        private let scheduler: TestScheduler

        init(scheduler: TestScheduler) {
            self.scheduler = scheduler
        }

        func send(_ payload: Data, idempotencyKey: String) -> Single<Void> {
            Single.create { [self] answer in
                scheduler.scheduleRelative((), dueTime: .seconds(1)) { [self] _ in
                    if !isOnline.value {
                        answer(.failure(Failure.offline))
                    } else if refuses.value {
                        answer(.failure(Failure.refused))
                    } else {
                        accepted.withLock { $0.append((payload, idempotencyKey)) }
                        answer(.success(()))
                    }
                    return Disposables.create()
                }
            }
        }

        func isPermanent(_ error: any Error) -> Bool {
            (error as? Failure) == .refused
        }
    }

    /// The snippet as the README shows it: compiled, never run here (its outbox would use this
    /// program's own journal).
    private func readmeSnippet(teller: Teller, api: NotesAPI) throws {
        struct NoteEdit: Codable, Sendable {
            let id: Int
            let text: String
        }

        let outbox = TellerOutbox(teller: teller)

        outbox.register(kind: "editNote") { record in
            api.send(record.payload, idempotencyKey: record.idempotencyKey)
                .map { OutboxSendOutcome.sent(invalidating: ["notes"]) }
                .catch { error in .just(api.isPermanent(error) ? .rejected(error) : .retryableFailure(error)) }
        }

        // Returns once the edit is on disk: it is sent now, or when the network is back.
        try outbox.enqueue(kind: "editNote", payload: NoteEdit(id: 7, text: "Buy milk"), tag: "notes")
    }

    struct NoteEdit: Codable, Sendable, Equatable {
        let id: Int
        let text: String
    }

    /// The snippet's outbox, on `journal`, invalidating `tag` for the snippet's `"notes"`.
    private static func outbox(teller: Teller, api: NotesAPI, journal: URL, tag: String) -> TellerOutbox {
        let outbox = TellerOutbox(teller: teller, journalURL: journal)
        outbox.register(kind: "editNote") { record in
            api.send(record.payload, idempotencyKey: record.idempotencyKey)
                .map { OutboxSendOutcome.sent(invalidating: [tag]) }
                .catch { error in .just(api.isPermanent(error) ? .rejected(error) : .retryableFailure(error)) }
        }
        return outbox
    }

    private static func journalURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("teller-readme-outbox-\(UUID())")
            .appendingPathComponent("outbox.journal")
    }

    @Test func anEditMadeOfflineIsKeptAndSentOnceWhenTheNetworkComesBack() throws {
        let env = VirtualTeller()
        let journal = Self.journalURL()
        defer { try? FileManager.default.removeItem(at: journal.deletingLastPathComponent()) }
        // A screen showing the notes, fetched at tick 0.
        let notes = TestRequirements(username: "notes")
        let dataSource = InMemoryDataSource()
        dataSource.write(["Buy bread"], for: notes)
        env.markFetched(notes, at: 0)
        dataSource.respond { _ in env.fetch(["Buy milk"], after: 5) }
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = notes
        let model = RepositoryModel(repository: repository)
        let api = NotesAPI(scheduler: env.scheduler)
        let outbox = Self.outbox(teller: env.teller, api: api, journal: journal, tag: notes.tag)

        try outbox.enqueue(kind: "editNote", payload: NoteEdit(id: 7, text: "Buy milk"), tag: notes.tag)
        env.scheduler.advanceTo(100)
        // Offline: the first attempt failed, and the default policy leaves the edit waiting.
        #expect(api.accepted.value.isEmpty)
        #expect(outbox.pending.map(\.tag) == [notes.tag])
        #expect(model.state?.cache == ["Buy bread"])

        api.isOnline.withLock { $0 = true }
        env.scheduler.scheduleAt(200) { env.teller.networkDidBecomeAvailable() }
        env.scheduler.start()

        let accepted = api.accepted.value
        #expect(accepted.count == 1)
        #expect(
            try accepted.map { try JSONDecoder().decode(NoteEdit.self, from: $0.payload) } == [
                NoteEdit(id: 7, text: "Buy milk")
            ]
        )
        #expect(outbox.pending.isEmpty)
        // Sent: the tag was invalidated, and the screen fetched the server's version.
        #expect(dataSource.calls.fetches == 1)
        #expect(model.state?.cache == ["Buy milk"])
    }

    @Test func aRefusedEditLeavesTheQueueAndIsListedUntilAcknowledged() throws {
        let env = VirtualTeller()
        let journal = Self.journalURL()
        defer { try? FileManager.default.removeItem(at: journal.deletingLastPathComponent()) }
        let api = NotesAPI(scheduler: env.scheduler)
        api.isOnline.withLock { $0 = true }
        api.refuses.withLock { $0 = true }
        let outbox = Self.outbox(teller: env.teller, api: api, journal: journal, tag: "notes")

        let edit = try outbox.enqueue(kind: "editNote", payload: NoteEdit(id: 7, text: "Buy milk"), tag: "notes")
        env.scheduler.start()

        #expect(outbox.pending.isEmpty)
        #expect(outbox.rejections.map(\.record.id) == [edit.id])
        #expect(outbox.acknowledge(rejectionOf: edit.id))
        #expect(outbox.rejections.isEmpty)
        #expect(api.accepted.value.isEmpty)
    }

    struct Note: Codable, Sendable, Equatable {
        let id: Int
        var text: String
    }

    struct NotesRequirements: RepositoryRequirements {
        let tag = "notes"
    }

    /// The notes' data source of the guide: its store in memory, its fetch on virtual time.
    final class NotesDataSource: RepositoryDataSource, Sendable {
        typealias Cache = [Note]
        typealias Requirements = NotesRequirements
        typealias FetchResult = [Note]
        typealias FetchError = any Error

        let maxAgeOfCache = Period(unit: 1, component: .hour)
        let stored = BehaviorSubject<[Note]>(value: [])

        func fetchFreshCache(requirements: NotesRequirements) -> Single<FetchResponse<[Note], any Error>> {
            .never()
        }

        func saveCache(_ cache: [Note], requirements: NotesRequirements) throws {
            stored.onNext(cache)
        }

        func observeCache(requirements: NotesRequirements) -> Observable<[Note]> {
            stored.asObservable()
        }

        func isCacheEmpty(_ cache: [Note], requirements: NotesRequirements) -> Bool {
            cache.isEmpty
        }

        // In the notes' data source: the notes as they will be once the server has the edits.
        func applyPendingWrites(_ writes: [OutboxRecord], to cache: [Note]?, requirements: NotesRequirements) -> [Note]?
        {
            writes.reduce(cache ?? []) { notes, write in
                guard let edit = try? JSONDecoder().decode(NoteEdit.self, from: write.payload) else { return notes }
                return notes.map { $0.id == edit.id ? Note(id: edit.id, text: edit.text) : $0 }
            }
        }
    }

    @Test func anEditWaitingInTheOutboxIsOnScreenMarkedAsNotSentYet() throws {
        let env = VirtualTeller()
        let journal = Self.journalURL()
        defer { try? FileManager.default.removeItem(at: journal.deletingLastPathComponent()) }
        let dataSource = NotesDataSource()
        dataSource.stored.onNext([Note(id: 7, text: "Buy bread"), Note(id: 8, text: "Call Ann")])
        env.store.setMetadata(FetchMetadata(lastFetched: env.date(0)), forTag: "notes")
        let repository = TellerRepository(dataSource: dataSource, teller: env.teller)
        repository.requirements = NotesRequirements()
        let model = RepositoryModel(repository: repository)
        let api = NotesAPI(scheduler: env.scheduler)
        let outbox = Self.outbox(teller: env.teller, api: api, journal: journal, tag: "notes")

        try outbox.enqueue(kind: "editNote", payload: NoteEdit(id: 7, text: "Buy milk"), tag: "notes")
        env.scheduler.advanceTo(100)

        #expect(model.state?.cache == [Note(id: 7, text: "Buy milk"), Note(id: 8, text: "Call Ann")])
        #expect(model.state?.pendingWrites.map(\.kind) == ["editNote"])
        #expect(try dataSource.stored.value() == [Note(id: 7, text: "Buy bread"), Note(id: 8, text: "Call Ann")])
    }
}
