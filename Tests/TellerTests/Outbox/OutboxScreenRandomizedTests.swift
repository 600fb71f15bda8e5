import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// An observed repository and an outbox on virtual time, driven at random: edits enqueued, the
/// server going down and up, refusing some edits, refreshes whose answers predate the edits the
/// server took meanwhile, invalidations. Checked at every tick: an edit is on screen from just
/// after its enqueue for as long as the server has not refused it, whatever the fetches bring,
/// and a refused one leaves the screen. At the end every edit was taken or refused, and the
/// screen shows the server's list with nothing pending.
///
/// A failure prints its seed; `TELLER_SEED=<seed> swift test --filter OutboxScreenRandomizedTests`
/// replays it.
@Suite struct OutboxScreenRandomizedTests {
    static let notes = TestRequirements(username: "notes")
    /// Ticks from an enqueue, or a refusal, to the state that shows it.
    static let grace = 3

    struct Refused: Error {}
    struct Offline: Error {}

    /// The fake server and what the test knows of each edit.
    final class World: @unchecked Sendable {
        // @unchecked: used on the test's thread only (virtual time runs there).
        var random: SplitMix64
        var isOnline = true
        var list: [String] = []
        var refusing: Set<String> = []
        var enqueuedAt: [String: Int] = [:]
        var refusedAt: [String: Int] = [:]
        var taken: [String] = []

        init(seed: UInt64) {
            random = SplitMix64(seed: seed)
        }
    }

    @Test func anEditStaysOnScreenUntilTheServerHasItOrRefusedIt() throws {
        for seed in RandomizedTestSeeds.seeds(ciCount: 40) {
            let issues = try run(seed: seed)
            #expect(issues.isEmpty, "seed \(seed): \(issues.prefix(5))")
        }
    }

    private func run(seed: UInt64) throws -> [String] {
        let fixture = OutboxFixture()
        defer { fixture.tearDown() }
        let world = World(seed: seed)
        let scheduler = fixture.scheduler
        let dataSource = InMemoryDataSource()
        dataSource.write([], for: Self.notes)
        dataSource.showPendingWrites { writes, cache in
            let base = cache ?? []
            let edits = writes.compactMap { try? JSONDecoder().decode(NoteEdit.self, from: $0.payload).text }
            return base + edits.filter { !base.contains($0) }
        }
        // A fetch answers with the server's list as it was when the fetch started.
        dataSource.respond { _ in
            fixture.env.fetch(world.list, after: 1 + world.random.below(6))
        }
        fixture.env.markFetched(Self.notes, at: 0)
        let repository = TellerRepository(dataSource: dataSource, teller: fixture.env.teller)
        repository.requirements = Self.notes
        let model = RepositoryModel(repository: repository)
        let outbox = fixture.outbox()
        outbox.register(kind: "saveNote") { record in
            let text = (try? JSONDecoder().decode(NoteEdit.self, from: record.payload).text) ?? ""
            return Single.create { answer in
                scheduler.scheduleRelative((), dueTime: .seconds(1 + world.random.below(4))) { _ in
                    if !world.isOnline {
                        answer(.success(.retryableFailure(Offline())))
                    } else if world.refusing.contains(text) {
                        world.refusedAt[text] = scheduler.clock
                        answer(.success(.rejected(Refused())))
                    } else {
                        world.list.append(text)
                        world.taken.append(text)
                        answer(.success(.sent()))
                    }
                    return Disposables.create()
                }
            }
        }

        var issues: [String] = []
        var checkedTicks = 0
        func check() {
            guard let shown = model.state?.cache else { return }
            checkedTicks += 1
            let now = scheduler.clock
            for (text, at) in world.enqueuedAt where now - at >= Self.grace {
                if let refused = world.refusedAt[text] {
                    if now - refused >= Self.grace, shown.contains(text) {
                        issues.append("\(now): \(text), refused at \(refused), still shown")
                    }
                } else if !shown.contains(text) {
                    issues.append("\(now): \(text), enqueued at \(at), not shown (\(shown))")
                }
            }
        }

        scheduler.advanceTo(5)
        var edits = 0
        for _ in 0..<200 {
            switch world.random.below(20) {
            case 0, 1, 2:
                let text = "edit \(edits)"
                edits += 1
                if world.random.below(5) == 0 { world.refusing.insert(text) }
                world.enqueuedAt[text] = scheduler.clock
                try outbox.enqueueNote(text, tag: Self.notes.tag)
            case 3:
                world.isOnline.toggle()
                if world.isOnline { fixture.env.teller.networkDidBecomeAvailable() }
            case 4, 5:
                _ = try repository.refresh(force: true).subscribe()
            case 6:
                fixture.env.teller.invalidate(tag: Self.notes.tag)
            default:
                break
            }
            fixture.step(to: scheduler.clock + 1 + world.random.below(3), checking: check)
        }

        world.isOnline = true
        fixture.env.teller.networkDidBecomeAvailable()
        withExtendedLifetime((repository, outbox)) { scheduler.start() }
        check()

        let refused = Set(world.refusedAt.keys)
        if !outbox.pending.isEmpty { issues.append("still pending at the end: \(outbox.pending.count)") }
        let unanswered = Set(world.enqueuedAt.keys).subtracting(world.taken).subtracting(refused)
        if !unanswered.isEmpty { issues.append("neither taken nor refused: \(unanswered)") }
        if Set(world.taken).count != world.taken.count { issues.append("taken twice: \(world.taken)") }
        if model.state?.pendingWrites.isEmpty != true { issues.append("the last state still lists pending writes") }
        if model.state?.cache != world.list {
            issues.append("the screen shows \(String(describing: model.state?.cache)), the server has \(world.list)")
        }
        if checkedTicks < 150 { issues.append("checked only \(checkedTicks) ticks") }
        return issues
    }
}
