import Foundation

extension TellerOutbox {
    /// Makes `recorded` (the journal's unacknowledged rejections) the rejections listed: those
    /// this process already lists keep their handler's error, the others (a relaunch's, another
    /// process's) get an ``OutboxRejectionReason``. Those no longer recorded (another process
    /// acknowledged them) go, released after the lock.
    ///
    /// - Returns: Whether the rejections listed changed.
    func adoptRejections(
        _ recorded: [OutboxJournalRefusal],
        _ state: inout State,
        _ followup: inout Followup
    ) -> Bool {
        let listed = state.rejections
        guard recorded.map(\.record.id) != listed.map(\.record.id) else { return false }
        var known: [UUID: OutboxRejection] = [:]
        for rejection in listed { known[rejection.record.id] = rejection }
        state.rejections = recorded.map { rejection in
            known.removeValue(forKey: rejection.record.id)
                ?? OutboxRejection(
                    record: rejection.record,
                    error: OutboxRejectionReason(rejection.reason),
                    rejectedAt: rejection.refusedAt
                )
        }
        followup.releasedRejections += known.values
        return true
    }
}
