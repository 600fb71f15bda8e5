import Foundation
@_spi(TellerInternals) import TellerRx

/// A durable queue of the app's writes (`PUT`, `POST`, `DELETE`) that sends them when it can:
/// writes made offline survive the app being killed and go out when the network returns.
///
/// ```swift
/// let outbox = TellerOutbox(teller: teller)
/// // At launch, before or after enqueueing: writes wait for their kind's handler.
/// outbox.register(kind: "saveNote") { record in
///     api.saveNote(record.payload, idempotencyKey: record.idempotencyKey)
///         .map { _ in OutboxSendOutcome.sent(invalidating: ["notes"]) }
///         .catch { error in .just(isPermanent(error) ? .rejected(error) : .retryableFailure(error)) }
/// }
/// try outbox.enqueue(kind: "saveNote", payload: note, tag: "notes")
/// ```
///
/// - **Durable.** ``enqueue(kind:payload:tag:scope:idempotencyKey:)`` returns once the write is
///   on disk, in an append-only journal (crash-safe: a torn or damaged entry is skipped and
///   reported, never a crash). A relaunched app's outbox reads the journal and sends what is
///   left once the handlers are registered: handlers are closures, which cannot be stored, so
///   the app registers one per kind at every launch. Writes of a kind with no handler wait
///   (logged once as ``TellerLogEvent/writeAwaitingHandler(kind:)``).
/// - **Ordered.** Writes of one scope are sent one at a time, in the order they were enqueued;
///   writes of different scopes in parallel, at most ``maxConcurrentSends`` at once.
/// - **Retried.** A ``OutboxSendOutcome/retryableFailure(_:)`` (also a failed `Single`, and a
///   send that takes longer than the ``Teller/fetchTimeout``) is tried again after the
///   ``Teller/retryPolicy``'s delays, timed on the ``Teller/backgroundScheduler``; when the
///   policy gives up (``RetryPolicy/never``, the default, gives up at once), the scope stalls
///   until ``Teller/networkDidBecomeAvailable()`` or ``Teller/appDidBecomeActive()``. Those
///   triggers also cut short the delays running, and ``networkDidBecomeUnavailable()`` stops
///   new sends until one of them.
/// - **Rejections.** A ``OutboxSendOutcome/rejected(_:)`` write leaves the queue, its tag is
///   invalidated (the screen goes back to the server's truth), and it is listed in
///   ``rejections`` until ``acknowledge(rejectionOf:)``, across relaunches (the journal keeps
///   it). The scope's later writes are still sent: each write stands alone (a later write that
///   needed the rejected one is rejected in its turn by the server).
/// - **Nothing dropped silently.** Only ``discard(id:)`` and ``discardAll()`` drop writes;
///   ``Teller/clear()`` does not touch the outbox.
/// - **Two processes** (an app and its extension) may share one journal: each sees what the
///   other enqueued, and only one sends at a time. The sending process holds an exclusive
///   `flock` on `<journal>.send-lock` while it has writes to send; another process's outbox
///   sends nothing meanwhile, and picks up the journal's writes when it next starts sending (an
///   enqueue, a trigger, a relaunch). The sender reads the journal again before it lets the
///   lock go, and once more after, so writes the other process enqueued meanwhile are sent too
///   (by one of the two).
///
/// A send is at least once: a crash after the server accepted a write but before the journal
/// recorded it sends it again after the relaunch, with the same
/// ``OutboxRecord/idempotencyKey``, so a server that honours the key applies it once. (The mark
/// that a write was sent is written without waiting for its `fsync`, so a power loss soon
/// after can bring a sent write back the same way; a killed process loses no mark.)
///
/// Threads: every method may be called on any thread. Sends start on the Teller's background
/// scheduler; handlers may answer on any thread. The outbox's lock is never held while app code
/// runs (handlers, observers, the logger).
public final class TellerOutbox: Sendable {
    /// A handler: sends one write and answers what the server said. Called on the
    /// ``Teller/backgroundScheduler``; its `Single` may answer on any thread.
    public typealias Send = @Sendable (OutboxRecord) -> Single<OutboxSendOutcome>

    /// The journal a `TellerOutbox` uses unless given another: `outbox.journal` next to the
    /// ``FileFetchMetadataStore/defaultURL`` metadata file, in this program's own folder.
    public static var defaultJournalURL: URL {
        OutboxJournal.defaultURL
    }

    /// The environment: its background scheduler, retry policy, timeout, clock, logger and
    /// triggers.
    public let teller: Teller
    /// How many writes (of different scopes) may be sent at once.
    public let maxConcurrentSends: Int
    /// The journal file.
    public var journalURL: URL {
        journal.url
    }

    let journal: OutboxJournal
    let sendLockPath: String
    let state = LockedState(State())
    /// What the journal reported while this outbox's lock was held, logged once it is released.
    let journalProblems: LockedState<[OutboxJournalProblem]>
    /// Changes in the order they were decided; delivered on the background scheduler into
    /// `changeSubject`.
    let inbox = PublishSubject<OutboxChange>()
    private let changeSubject = PublishSubject<OutboxChange>()
    private let noticeSubscription = SingleAssignmentDisposable()

    /// Creates an outbox on a journal file and reads the writes it holds: writes earlier
    /// launches left are sent once their kinds' handlers are registered.
    ///
    /// Reading the journal never throws here: a file that cannot be read is reported as
    /// ``TellerLogEvent/outboxProblem(_:)`` and read again at the next trigger.
    ///
    /// - Parameters:
    ///   - teller: The environment; ``Teller/shared`` by default.
    ///   - journalURL: The journal file (created by the first enqueue), with `.lock` and
    ///     `.send-lock` files next to it. Give every outbox of one app the same file, and tests
    ///     a file of their own.
    ///   - maxConcurrentSends: How many writes of different scopes may be sent at once; a value
    ///     below 1 is logged as ``TellerLogEvent/invalidConfiguration(_:)`` and 1 is used.
    public init(
        teller: Teller = .shared,
        journalURL: URL = TellerOutbox.defaultJournalURL,
        maxConcurrentSends: Int = 4
    ) {
        self.teller = teller
        if maxConcurrentSends < 1 {
            teller.log(
                .invalidConfiguration(
                    "TellerOutbox maxConcurrentSends is \(maxConcurrentSends); it must be 1 or more: using 1"
                )
            )
        }
        self.maxConcurrentSends = max(maxConcurrentSends, 1)
        let problems = LockedState<[OutboxJournalProblem]>([])
        journalProblems = problems
        journal = OutboxJournal(url: journalURL) { problem in problems.withLock { $0.append(problem) } }
        sendLockPath = journalURL.path + ".send-lock"
        _ = inbox.observe(on: teller.backgroundScheduler).subscribe(changeSubject)
        teller.outboxCreated(self)
        noticeSubscription.setDisposable(
            teller.notices.subscribe(onNext: { [weak self] notice in
                guard case .refresh(let trigger) = notice, trigger != .interval else { return }
                self?.resume()
            })
        )
        update { state, followup in
            readAgain(&state, &followup)
            pump(&state, &followup)
        }
    }

    deinit {
        noticeSubscription.dispose()
        let (disposables, sendLock) = state.withLock { state in
            defer {
                state.sends = [:]
                state.timers = [:]
                state.sendLock = nil
            }
            return (Array(state.sends.values) + Array(state.timers.values), state.sendLock)
        }
        disposables.forEach { $0.dispose() }
        if var sendLock { sendLock.close() }
        inbox.onCompleted()
    }

    // MARK: Handlers

    /// Registers the handler that sends writes of `kind`, replacing any before it, and starts
    /// sending the writes of that kind that wait.
    ///
    /// Register every kind at every launch: the journal keeps writes, not handlers.
    ///
    /// - Parameters:
    ///   - kind: The ``OutboxRecord/kind`` it sends.
    ///   - onConflict: Which version stands when the handler answers
    ///     ``OutboxSendOutcome/conflict(_:)``; ``OutboxConflictPolicy/manual`` (the app decides)
    ///     by default.
    ///   - send: Sends one write and answers with an ``OutboxSendOutcome``. Called on the
    ///     ``Teller/backgroundScheduler``, for one write of a scope at a time; a `Single` that
    ///     fails is a retryable failure.
    public func register(kind: String, onConflict: OutboxConflictPolicy = .manual, send: @escaping Send) {
        update { state, followup in
            if let replaced = state.handlers.updateValue(Handler(send: send, onConflict: onConflict), forKey: kind) {
                followup.released.append(replaced)
            }
            state.reportedUnhandledKinds.remove(kind)
            state.queue.listEveryScope()
            pump(&state, &followup)
        }
    }

    // MARK: Writes

    /// Adds a write to the outbox and returns once it is on disk: it survives a crash or kill
    /// from then on. Sending starts at once if its kind has a handler and the network is not
    /// known to be down.
    ///
    /// Blocks the calling thread for the journal's append and `fsync` (about a millisecond on a
    /// phone's flash), and while another process appends.
    ///
    /// - Parameters:
    ///   - kind: The name of the handler that sends it.
    ///   - payload: The write, encoded with a plain `JSONEncoder`; the handler decodes
    ///     ``OutboxRecord/payload`` with a `JSONDecoder`.
    ///   - tag: The tag of the cached data it changes (invalidated if the server rejects it).
    ///   - scope: The sequence it is sent in, one write at a time; `nil` for `tag`.
    ///   - idempotencyKey: Sent with every attempt; `nil` for a new UUID string.
    /// - Returns: The record as stored.
    /// - Throws: ``OutboxError/payloadNotEncodable(kind:error:)`` or
    ///   ``OutboxError/notRecorded(reason:)``: nothing was enqueued.
    @discardableResult
    public func enqueue(
        kind: String,
        payload: some Encodable,
        tag: String,
        scope: String? = nil,
        idempotencyKey: String? = nil
    ) throws(OutboxError) -> OutboxRecord {
        let data: Data
        do {
            data = try JSONEncoder().encode(payload)
        } catch {
            throw .payloadNotEncodable(kind: kind, error: error)
        }
        let record = OutboxRecord(
            idempotencyKey: idempotencyKey,
            kind: kind,
            tag: tag,
            scope: scope,
            payload: data,
            createdAt: teller.now
        )
        let failure = update { state, followup -> OutboxError? in
            do {
                try journal.append(.enqueued(record: record))
            } catch {
                return .notRecorded(reason: "\(error)")
            }
            state.queue.add(record)
            emit(.enqueued(record), &state, &followup)
            pump(&state, &followup)
            return nil
        }
        if let failure { throw failure }
        return record
    }

    /// The writes not yet sent, rejected or discarded, oldest enqueued first, as this outbox
    /// knows them (another process's enqueues show once it reads the journal again: see
    /// ``OutboxChange/reloaded``).
    public var pending: [OutboxRecord] {
        state.withLock { $0.queue.pending }
    }

    /// The pending writes that change `tag`, oldest first.
    ///
    /// - Parameter tag: The ``OutboxRecord/tag``.
    public func pending(tag: String) -> [OutboxRecord] {
        pending.filter { $0.tag == tag }
    }

    /// Drops a pending write without sending it. A send of it already under way is not
    /// stopped, but its answer is ignored. Its scope goes on with its next write.
    ///
    /// - Parameter id: The ``OutboxRecord/id``.
    /// - Returns: Whether the write was pending.
    /// - Throws: ``OutboxError/notRecorded(reason:)``: the journal could not record the
    ///   discard, and the write stays pending.
    @discardableResult
    public func discard(id: UUID) throws(OutboxError) -> Bool {
        try discard { queue in queue.record(id).map { [$0] } ?? [] } > 0
    }

    /// Drops every pending write without sending it, as ``discard(id:)`` does each one: the
    /// explicit call for a sign-out that must lose the user's unsent edits.
    ///
    /// - Returns: How many writes were dropped.
    /// - Throws: ``OutboxError/notRecorded(reason:)``: the journal could not record a discard;
    ///   the writes not yet dropped stay pending.
    @discardableResult
    public func discardAll() throws(OutboxError) -> Int {
        try discard { $0.pending }
    }

    // MARK: Conflicts

    /// The writes the server refused because the data changed elsewhere, that wait for the app
    /// to say which version stands (``OutboxConflictPolicy/manual``), oldest first. Each holds its
    /// scope: nothing more of it is sent until it is resolved. Kept in the journal: a relaunched
    /// outbox lists them again (with an ``OutboxRejectionReason`` as their error and their
    /// ``OutboxConflict/detectedAt``) and holds their scopes, and so does another process's
    /// outbox on the same journal once it reads it again (``OutboxChange/reloaded``). Safe from
    /// any thread.
    public var conflicts: [OutboxConflict] {
        state.withLock { $0.conflicts }
    }

    /// Settles the conflict of the write `id`: `.server` drops the write unsent and fetches its
    /// tag; `.mine` sends it again at once with ``OutboxRecord/overwritesConflict`` set. Its
    /// scope goes on either way. The journal records the decision first, so it holds across a
    /// relaunch: a write kept (`.mine`) and not sent yet is sent as an overwrite by the next
    /// launch. Safe from any thread; blocks it for the journal's append and `fsync`.
    ///
    /// - Returns: `false` when no conflict of that write waits (resolved already, or discarded).
    /// - Throws: ``OutboxError/notRecorded(reason:)`` when the journal could not record the
    ///   decision; nothing changed, and the conflict stays listed.
    @discardableResult
    public func resolve(conflictOf id: UUID, keeping resolution: OutboxConflictResolution) throws(OutboxError) -> Bool {
        try resolve(id, keeping: resolution)
    }

    // MARK: Rejections

    /// The error of the latest failure among the writes to `tag`: the last failed attempt of a
    /// write that still waits, a rejection not acknowledged yet, or a conflict not resolved yet,
    /// whichever came last; `nil` when none failed. Repositories showing the tag show it as
    /// ``CacheState/writeError``. Safe from any thread.
    ///
    /// - Parameter tag: The ``OutboxRecord/tag`` of the writes.
    public func lastFailure(tag: String) -> (any Error)? {
        state.withLock { state in
            let attempts = state.failures.compactMap { id, failure in
                state.queue.record(id)?.tag == tag ? failure : nil
            }
            let rejections = state.rejections.filter { $0.record.tag == tag }.map { ($0.error, $0.rejectedAt) }
            let conflicts = state.conflicts.filter { $0.record.tag == tag }.map { ($0.error, $0.detectedAt) }
            return (attempts + rejections + conflicts).max { $0.1 < $1.1 }?.0
        }
    }

    /// The writes the server rejected that the app has not acknowledged yet, oldest first. Kept
    /// in the journal: a relaunched outbox lists them again (with an ``OutboxRejectionReason``
    /// as their error), and so does another process's outbox on the same journal once it reads
    /// it again (``OutboxChange/reloaded``).
    public var rejections: [OutboxRejection] {
        state.withLock { $0.rejections }
    }

    /// Removes the rejection of write `id` from ``rejections`` for good, once the app told the
    /// user: the journal records the acknowledgement, so a relaunch no longer lists it.
    ///
    /// Blocks the calling thread for the journal's append and `fsync`.
    ///
    /// - Parameter id: The rejected ``OutboxRecord/id``.
    /// - Returns: Whether it was acknowledged: `false` when it was not listed, or when the journal
    ///   could not record the acknowledgement (logged as ``TellerLogEvent/outboxProblem(_:)``;
    ///   the rejection stays listed, so the call can be made again).
    @discardableResult
    public func acknowledge(rejectionOf id: UUID) -> Bool {
        let acknowledged = update { state, followup -> OutboxRejection? in
            guard let index = state.rejections.firstIndex(where: { $0.record.id == id }) else { return nil }
            do {
                try journal.append(.acknowledged(id: id))
            } catch {
                followup.events.append(
                    .outboxProblem(
                        "The outbox could not record that the rejection of \(id) was acknowledged (\(error)); it stays listed."
                    )
                )
                return nil
            }
            let rejection = state.rejections.remove(at: index)
            emit(.acknowledged(rejection), &state, &followup)
            return rejection
        }
        return acknowledged != nil
    }

    // MARK: Changes and triggers

    /// Every change of the pending writes and rejections, delivered in order on the
    /// ``Teller/backgroundScheduler``, from when it is subscribed; completes when the outbox is
    /// released. Read ``pending`` and ``rejections`` for the state at subscription.
    public var changes: Observable<OutboxChange> {
        changeSubject.asObservable()
    }

    /// Tells the outbox the network is gone: it starts no new send (those under way finish)
    /// until ``Teller/networkDidBecomeAvailable()`` or ``Teller/appDidBecomeActive()``. Safe from
    /// any thread.
    public func networkDidBecomeUnavailable() {
        update { state, _ in state.isNetworkDown = true }
    }
}
