import Foundation
import TellerTestSupport

@testable import Teller

/// What one repository's states must say of its tag's writes, as a randomized machine-level
/// test knows it: the writes as the repository last read them from the outbox, and those it
/// was told the server took. It starts again with each requirements session.
struct ShownWritesExpectation {
    /// The tag's writes as the repository last read them (`Teller.writes(tag:)`).
    private(set) var told: TagWrites
    /// The writes the repository was told the server took, this session, in that order.
    private(set) var taken: [OutboxRecord] = []

    init(told: TagWrites = TagWrites()) {
        self.told = told
    }

    /// The repository read `writes` again, told that `sent` left because the server took it.
    mutating func read(_ writes: TagWrites, sent: OutboxRecord?) {
        if let sent, told.pending.contains(where: { $0.id == sent.id }) { taken.append(sent) }
        told = writes
    }

    /// The data source's pure function the test shows writes with: each write's text after the
    /// stored list, unless the list has it already.
    static func apply(_ writes: [OutboxRecord], to cache: [String]?) -> [String]? {
        let base = cache ?? []
        let texts = writes.map(OutboxQueueModel.text(of:)).filter { !base.contains($0) }
        let shown = base + texts
        return shown.isEmpty ? nil : shown
    }

    /// What a state says of the writes: the pending ones as last read; shown, those the server
    /// took that it was told of (some of them, in order), then the pending ones; the failure
    /// as last read.
    func violations(pendingWrites: [OutboxRecord], shownWrites: [OutboxRecord], writeError: (any Error)?) -> [String] {
        var found: [String] = []
        let pending = told.pending
        if pendingWrites.map(\.id) != pending.map(\.id) {
            found.append("(a) the state lists pending \(texts(pendingWrites)), the outbox has \(texts(pending))")
        }
        let shownTaken = shownWrites.dropLast(min(pending.count, shownWrites.count))
        if shownWrites.suffix(pending.count).map(\.id) != pending.map(\.id) {
            found.append("(a) the state shows \(texts(shownWrites)), not ending with the pending \(texts(pending))")
        }
        let takenIDs = taken.map(\.id)
        let unexplained = shownTaken.filter { !takenIDs.contains($0.id) }
        if !unexplained.isEmpty {
            found.append("(a) the state shows \(texts(unexplained)), neither pending nor taken by the server")
        }
        if shownTaken.map(\.id) != takenIDs.filter({ id in shownTaken.contains { $0.id == id } }) {
            found.append("(a) the state shows the taken writes \(texts(Array(shownTaken))) out of order")
        }
        let expected = told.failure as? TestError
        if (writeError as? TestError) != expected || (writeError == nil) != (told.failure == nil) {
            found.append(
                "(a) the state shows the write error \(String(describing: writeError)), not \(String(describing: expected))"
            )
        }
        return found
    }

    /// What observers see of a cache that was read (`shown`, writes applied): every pending
    /// write, and none the server rejected (`rejected`: their texts) once the repository read
    /// that it left.
    func violations(shown: [String]?, rejected: Set<String>) -> [String] {
        let shown = shown ?? []
        var found: [String] = []
        let missing = told.pending.map(OutboxQueueModel.text(of:)).filter { !shown.contains($0) }
        if !missing.isEmpty {
            found.append("(b) observers see \(shown), without the pending writes \(missing)")
        }
        let pending = Set(told.pending.map(OutboxQueueModel.text(of:)))
        let refused = shown.filter { rejected.contains($0) && !pending.contains($0) }
        if !refused.isEmpty {
            found.append("(b) observers see \(refused), which the server rejected")
        }
        return found
    }

    /// The writes the server took that observers do not see in `shown` (a cache read, writes
    /// applied): the data read predates them and the repository no longer applies them.
    func takenButNotSeen(shown: [String]?) -> [String] {
        let shown = shown ?? []
        return taken.map(OutboxQueueModel.text(of:)).filter { !shown.contains($0) }
    }

    private func texts<Records: Collection<OutboxRecord>>(_ records: Records) -> [String] {
        records.map(OutboxQueueModel.text(of:))
    }
}
