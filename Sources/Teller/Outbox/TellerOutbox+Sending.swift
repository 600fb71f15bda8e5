import Foundation
@_spi(TellerInternals) import TellerRx

// How a TellerOutbox sends: every change is decided under its lock (journal entry, queue,
// which sends start) and acted on after it (sends started, timers scheduled, tags
// invalidated, log events and changes delivered), so no app code runs under the lock.

extension TellerOutbox {
    /// A registered handler. The closure sits in a struct: read back out of generic storage
    /// alone it would be wrapped in a conversion thunk per read.
    struct Handler {
        let send: Send
        let onConflict: OutboxConflictPolicy
    }

    /// What the outbox's lock guards.
    struct State {
        var queue = OutboxSendQueue()
        var handlers: [String: Handler] = [:]
        var isNetworkDown = false
        /// The send lock's descriptor while this outbox is the process that sends. Held whenever
        /// a send is under way.
        var sendLock: FileLock?
        /// The sends under way, by write.
        var sends: [UUID: SingleAssignmentDisposable] = [:]
        /// The retry delays running, by scope.
        var timers: [String: SingleAssignmentDisposable] = [:]
        var rejections: [OutboxRejection] = []
        /// The last failed attempt of each write that waits, with when it failed: what
        /// repositories show as their tag's ``CacheState/writeError``.
        var failures: [UUID: (error: any Error, at: Date)] = [:]
        /// The writes whose conflicts wait for the app, oldest first.
        var conflicts: [OutboxConflict] = []
        /// The writes the server took that no fetch brought back yet, in the order they were
        /// taken.
        var taken: [TakenWrite] = []
        /// How many taken writes are kept at most (``TellerOutbox/takenWritesKept``; tests set
        /// fewer).
        var takenWritesKept = TellerOutbox.takenWritesKept
        /// Looks at the send lock again scheduled since it was last taken or a trigger came
        /// (``sendLockRetryDelays``), and whether one is due.
        var sendLockRetries = 0
        var isSendLockRetryDue = false
        var reportedUnhandledKinds: Set<String> = []
        /// Changes decided and not yet handed to `inbox`, and whether a thread is handing them.
        var undelivered = FIFOQueue<Delivery>()
        var isDelivering = false
    }

    /// What the outbox tells once its lock is released, in order.
    enum Delivery {
        /// A change: to `inbox`, and to the repositories showing its tag.
        case change(OutboxChange)
        /// Writes another process sent, found in the journal: to the repositories showing their
        /// tags (which the outbox invalidated first), as writes the server took.
        case sentElsewhere([OutboxRecord])
    }

    /// What a decision taken under the lock leaves to do after it.
    struct Followup {
        var events: [TellerLogEvent] = []
        var sends: [(record: OutboxRecord, handler: Handler, subscription: SingleAssignmentDisposable)] = []
        var timers: [(scope: String, delay: TimeInterval, timer: SingleAssignmentDisposable)] = []
        var invalidations: [String] = []
        /// Tags marked under the lock for taken writes, which repositories hear of after it.
        var markedTags: [String] = []
        var invalidatedBranches: [TagPrefix] = []
        var disposals: [any Disposable] = []
        /// App values to release outside the lock (a replaced handler, rejections and their
        /// errors).
        var released: [Handler] = []
        var releasedRejections: [OutboxRejection] = []
        var releasedConflicts: [OutboxConflict] = []
        var releasedErrors: [any Error] = []
        var hasChanges = false
        /// Look at the send lock again after this delay, in seconds.
        var sendLockRetry: TimeInterval?
    }

    /// When to look at the send lock again after finding it held with writes to send. Another
    /// process that holds it sends them; but a holder may also be a moment's one (a child being
    /// spawned holds a copy of every descriptor until it runs its program), and then nobody
    /// would until the next trigger. A few looks, spread out, and then the triggers.
    static let sendLockRetryDelays: [TimeInterval] = [0.05, 0.2, 1, 5]

    /// Decides under the lock with `body`, then does what it decided.
    @discardableResult
    func update<Result>(_ body: (inout State, inout Followup) -> Result) -> Result {
        var followup = Followup()
        let result = state.withLock { body(&$0, &followup) }
        perform(followup)
        return result
    }

    private func perform(_ followup: Followup) {
        let problems = journalProblems.withLock { problems in
            defer { problems = [] }
            return problems
        }
        if !problems.isEmpty || !followup.events.isEmpty {
            teller.log(problems.map { .outboxProblem($0.description) } + followup.events)
        }
        followup.disposals.forEach { $0.dispose() }
        // Invalidations first: a repository that sees its last pending write leave then refetches
        // once, for the mark, rather than once for the write and again for a mark that came
        // while that fetch ran.
        for tag in followup.markedTags { teller.metadataChanged(.invalidated(tag)) }
        followup.invalidations.forEach(teller.invalidate(tag:))
        followup.invalidatedBranches.forEach(teller.invalidate(tagsUnder:))
        if followup.hasChanges { deliverChanges() }
        if let delay = followup.sendLockRetry {
            let nanoseconds = Int((delay * 1_000_000_000).rounded())
            _ = teller.backgroundScheduler.scheduleRelative((), dueTime: .nanoseconds(nanoseconds)) { [weak self] _ in
                self?.update { state, followup in
                    state.isSendLockRetryDue = false
                    self?.pump(&state, &followup)
                }
                return Disposables.create()
            }
        }
        for (scope, delay, timer) in followup.timers {
            let nanoseconds = Int((delay * 1_000_000_000).rounded())
            timer.setDisposable(
                teller.backgroundScheduler.scheduleRelative((), dueTime: .nanoseconds(nanoseconds)) { [weak self] _ in
                    self?.retryDue(scope, timer: timer)
                    return Disposables.create()
                }
            )
        }
        for (record, handler, subscription) in followup.sends {
            start(record, with: handler, subscription: subscription)
        }
    }

    // MARK: Sending

    /// Starts as many sends as the bound allows, becoming the sending process first if needed;
    /// lets the send lock go once nothing is under way, and reads the journal after that, so no
    /// write another process enqueued meanwhile waits for a trigger.
    func pump(_ state: inout State, _ followup: inout Followup) {
        var hasReadAgain = false
        while true {
            startSends(&state, &followup, hasReadAgain: &hasReadAgain)
            guard state.queue.sendingCount == 0, state.sendLock != nil else { return }
            // Before handing sending over, pick up what another process enqueued meanwhile.
            if !hasReadAgain, !state.isNetworkDown {
                hasReadAgain = true
                if readAgain(&state, &followup) { continue }
            }
            state.sendLock?.close()
            state.sendLock = nil
            // A process that enqueued between that read and the release found the lock taken,
            // and left its writes to this one: read once more, now that it could take the lock.
            if !state.isNetworkDown, readAgain(&state, &followup) { continue }
            return
        }
    }

    private func startSends(_ state: inout State, _ followup: inout Followup, hasReadAgain: inout Bool) {
        guard !state.isNetworkDown else { return }
        let handlers = state.handlers
        var unhandled: [String] = []
        defer {
            for kind in unhandled where state.reportedUnhandledKinds.insert(kind).inserted {
                followup.events.append(.writeAwaitingHandler(kind: kind))
            }
        }
        while state.queue.sendingCount < maxConcurrentSends,
            let (record, handler) = state.queue.next(handlers: handlers, unhandled: &unhandled)
        {
            if state.sendLock == nil {
                // Not the sending process yet: become it, and read what the last one left.
                state.queue.unmark(record)
                guard takeSendLock(&state, &followup) else { return }
                hasReadAgain = true
                readAgain(&state, &followup)
                state.queue.relistEveryScope()
                continue
            }
            let subscription = SingleAssignmentDisposable()
            state.sends[record.id] = subscription
            followup.sends.append((record, handler, subscription))
        }
    }

    private func takeSendLock(_ state: inout State, _ followup: inout Followup) -> Bool {
        do {
            // Not taken: another process sends; it reads our writes before it lets the lock go.
            var lock = FileLock()
            guard try lock.tryAcquire(path: sendLockPath) else {
                lock.close()
                let delays = Self.sendLockRetryDelays
                if !state.isSendLockRetryDue, state.sendLockRetries < delays.count {
                    followup.sendLockRetry = delays[state.sendLockRetries]
                    state.sendLockRetries += 1
                    state.isSendLockRetryDue = true
                }
                return false
            }
            state.sendLock = lock
            state.sendLockRetries = 0
            return true
        } catch {
            followup.events.append(
                .outboxProblem(
                    "The outbox could not take its send lock \(sendLockPath) (\(error)); its writes wait for the next trigger."
                )
            )
            return false
        }
    }

    /// Replaces what this outbox knows by the journal's pending writes, rejections and conflicts,
    /// while no send is under way (one under way is this outbox's own, already known).
    ///
    /// - Returns: Whether the pending writes, the rejections or the conflicts changed.
    @discardableResult
    func readAgain(_ state: inout State, _ followup: inout Followup) -> Bool {
        guard state.queue.sendingCount == 0 else { return false }
        do {
            let contents = try journal.contents()
            let rejectionsChanged = adoptRejections(contents.rejections, &state, &followup)
            let (pendingChanged, left) = state.queue.replace(with: contents.pending)
            let conflictsChanged = adoptConflicts(contents, &state, &followup)
            let taken = adoptTaken(contents.taken, &state, &followup)
            guard pendingChanged || rejectionsChanged || conflictsChanged else { return false }
            // Another process sent them (or discarded them: the journal does not say which once
            // compacted). As for a send of this process's own, their tags are invalidated (those
            // it took, as it took them) and repositories told before the reload, so the screen
            // keeps them until a fetch.
            let rejected = Set(contents.rejections.map(\.record.id))
            let sent = left.filter { !rejected.contains($0.id) }
            if !sent.isEmpty {
                followup.invalidations += Set(sent.filter { !taken.contains($0.id) }.map(\.tag))
                state.undelivered.enqueue(.sentElsewhere(sent))
            }
            emit(.reloaded, &state, &followup)
            return true
        } catch {
            followup.events.append(
                .outboxProblem("The outbox could not read its journal (\(error)); it tries again at the next trigger.")
            )
            return false
        }
    }

    private func start(_ record: OutboxRecord, with handler: Handler, subscription: SingleAssignmentDisposable) {
        let teller = teller
        subscription.setDisposable(
            teller.backgroundScheduler.schedule(()) { [weak self] _ in
                guard let self else { return Disposables.create() }
                let answered = LockedState(false)
                let timer = SingleAssignmentDisposable()
                let sending = handler.send(record).subscribe { [weak self] event in
                    guard isFirst(answered) else { return }
                    timer.dispose()
                    self?.finish(record, event)
                }
                // A timer only for a send still under way: one that answered while subscribed
                // (from a cache, in a benchmark) skips the cost of making and cancelling it.
                if let timeout = teller.fetchTimeout, !answered.value {
                    let seconds = secondsOf(timeout)
                    timer.setDisposable(
                        teller.backgroundScheduler.scheduleRelative((), dueTime: timeout) { [weak self] _ in
                            guard isFirst(answered) else { return Disposables.create() }
                            sending.dispose()
                            self?.finish(
                                record,
                                .failure(OutboxError.sendTimedOut(kind: record.kind, seconds: seconds))
                            )
                            return Disposables.create()
                        }
                    )
                }
                return Disposables.create(sending, timer)
            }
        )
    }

    /// The send of `record` answered `event`.
    private func finish(_ record: OutboxRecord, _ event: SingleEvent<OutboxSendOutcome>) {
        var outcome: OutboxSendOutcome
        switch event {
        case .success(let answer): outcome = answer
        case .failure(let error): outcome = .retryableFailure(error)
        }
        // Sent to replace the server's version, it conflicted again: nothing will change that.
        if case .conflict(let error) = outcome, record.overwritesConflict { outcome = .rejected(error) }
        // App code (the clock, the error's description, the policy's filter) runs before the lock.
        let now = teller.now
        let policy = teller.retryPolicy
        var reason = ""
        var isRetryable = false
        switch outcome {
        case .sent: break
        case .rejected(let error), .conflict(let error): reason = "\(error)"
        case .retryableFailure(let error): isRetryable = policy.isRetryable(error)
        }
        update { state, followup in
            if let subscription = state.sends.removeValue(forKey: record.id) { followup.disposals.append(subscription) }
            guard state.queue.status(ofScope: record.scope) == .sending(record.id) else { return }
            // `nil` when discarded while it was sent: its answer changes nothing.
            let pending = state.queue.record(record.id)
            // The app's error goes after the lock, with the followup.
            if let earlier = state.failures.removeValue(forKey: record.id) {
                followup.releasedErrors.append(earlier.error)
            }
            switch outcome {
            case .sent(let tags, let branches):
                if let pending {
                    // Not flushed: at 1 fsync per write the outbox could not send more than a
                    // few thousand writes a second. Only a power loss before the next flushed
                    // append can lose the mark, and that write is then sent again with its
                    // idempotency key, which the outbox promises anyway (at least once).
                    append(.taken(id: record.id), flush: false, &followup)
                    _ = state.queue.remove(record.id)
                    // The write's own tag is marked: its repositories keep showing the write,
                    // across a relaunch too, until a fetch that started after this brings the
                    // server's data back.
                    take(pending, &state, &followup)
                    emit(.sent(pending), &state, &followup)
                } else {
                    followup.invalidations.append(record.tag)
                }
                followup.events.append(.writeSent(kind: record.kind, id: record.id))
                followup.invalidations += tags.filter { $0 != record.tag }
                followup.invalidatedBranches += branches
                state.queue.answered(record)
            case .rejected(let error):
                if let pending {
                    append(.rejected(id: record.id, reason: reason, rejectedAt: now), &followup)
                    _ = state.queue.remove(record.id)
                    let rejection = OutboxRejection(record: pending, error: error, rejectedAt: now)
                    state.rejections.append(rejection)
                    emit(.rejected(rejection), &state, &followup)
                    followup.invalidations.append(record.tag)
                }
                followup.events.append(.writeRejected(kind: record.kind, id: record.id, error: error))
                state.queue.answered(record)
            case .conflict(let error):
                conflicted(record, pending: pending, error: error, reason: reason, at: now, &state, &followup)
            case .retryableFailure(let error):
                guard var pending else {
                    state.queue.answered(record)
                    break
                }
                pending.attempts += 1
                state.failures[record.id] = (error, now)
                append(.attempted(id: record.id, attempts: pending.attempts), &followup)
                state.queue.setAttempts(pending.attempts, of: record.id)
                var delay: TimeInterval?
                state.queue.failed(record) { failures in
                    delay = policy.delay(
                        afterFailedAttempts: failures,
                        isRetryable: isRetryable,
                        random: .random(in: 0..<1)
                    )
                    return delay != nil
                }
                if let delay {
                    let timer = SingleAssignmentDisposable()
                    if let replaced = state.timers.updateValue(timer, forKey: record.scope) {
                        followup.disposals.append(replaced)
                    }
                    followup.timers.append((record.scope, delay, timer))
                }
                emit(.attempted(pending), &state, &followup)
                followup.events.append(
                    .writeFailed(
                        kind: record.kind,
                        id: record.id,
                        attempts: pending.attempts,
                        error: error,
                        retryIn: delay.map { .nanoseconds(Int(($0 * 1_000_000_000).rounded())) }
                    )
                )
            }
            pump(&state, &followup)
        }
    }

    /// The retry delay `timer` of `scope` ran out.
    private func retryDue(_ scope: String, timer: SingleAssignmentDisposable) {
        update { state, followup in
            guard state.timers[scope] === timer else { return }
            state.timers[scope] = nil
            followup.disposals.append(timer)
            state.queue.retryDue(scope)
            pump(&state, &followup)
        }
    }

    /// A trigger (or a relaunch): the network counts as up, stalled and waiting scopes go on at
    /// once, and a process that is not sending reads the journal again.
    func resume() {
        update { state, followup in
            state.isNetworkDown = false
            state.sendLockRetries = 0
            followup.disposals += state.timers.values.map { $0 as any Disposable }
            state.timers = [:]
            state.queue.resume()
            if state.sendLock == nil { readAgain(&state, &followup) }
            pump(&state, &followup)
        }
    }

    /// Discards the writes `select` picks, recording each in the journal.
    func discard(_ select: (OutboxSendQueue) -> [OutboxRecord]) throws(OutboxError) -> Int {
        let (dropped, failure) = update { state, followup -> (Int, OutboxError?) in
            var dropped = 0
            var failure: OutboxError?
            let records = select(state.queue)
            for (index, record) in records.enumerated() {
                do {
                    // Flushing the last entry flushes the whole file: one fsync for them all.
                    try journal.append(.discarded(id: record.id), flush: index == records.count - 1)
                } catch {
                    failure = .notRecorded(reason: "\(error)")
                    break
                }
                _ = state.queue.remove(record.id)
                if let failure = state.failures.removeValue(forKey: record.id) {
                    followup.releasedErrors.append(failure.error)
                }
                if let conflict = state.conflicts.firstIndex(where: { $0.record.id == record.id }) {
                    followup.releasedConflicts.append(state.conflicts.remove(at: conflict))
                }
                emit(.discarded(record), &state, &followup)
                dropped += 1
            }
            pump(&state, &followup)
            return (dropped, failure)
        }
        if let failure { throw failure }
        return dropped
    }

    // MARK: Journal and changes

    /// Appends `entry` about a write that left the queue or failed; a failure is logged, not
    /// thrown: the write then stays in the journal and is sent again after a relaunch.
    func append(_ entry: OutboxJournalEntry, flush: Bool = true, _ followup: inout Followup) {
        do {
            try journal.append(entry, flush: flush)
        } catch {
            followup.events.append(
                .outboxProblem("The outbox could not record \(entry) (\(error)); a relaunch may send that write again.")
            )
        }
    }

    func emit(_ change: OutboxChange, _ state: inout State, _ followup: inout Followup) {
        state.undelivered.enqueue(.change(change))
        followup.hasChanges = true
    }

    /// Hands what was decided so far to `inbox` and the repositories, in order: the thread that
    /// finds nobody handing it does it, until none is left.
    private func deliverChanges() {
        let mustDeliver = state.withLock { state in
            guard !state.isDelivering else { return false }
            state.isDelivering = true
            return true
        }
        guard mustDeliver else { return }
        while let delivery = state.withLock({ state -> Delivery? in
            guard let delivery = state.undelivered.dequeue() else {
                state.isDelivering = false
                return nil
            }
            return delivery
        }) {
            switch delivery {
            case .change(let change):
                inbox.onNext(change)
                if case .sent(let record) = change {
                    teller.writesChanged(tag: record.tag, sent: [record])
                } else {
                    teller.writesChanged(tag: change.changedTag)
                }
            case .sentElsewhere(let records):
                for (tag, sent) in Dictionary(grouping: records, by: \.tag) {
                    teller.writesChanged(tag: tag, sent: sent)
                }
            }
        }
    }
}

/// Whether this is the first of a send's answer and its timeout: only that one counts.
private func isFirst(_ answered: LockedState<Bool>) -> Bool {
    answered.withLock { answered in
        defer { answered = true }
        return !answered
    }
}
