import Foundation

/// Something Teller did or recovered from, for a logger hook (``Teller/logger``).
public enum TellerLogEvent: Sendable, CustomStringConvertible {
    /// A fetch started for `tag`.
    case refreshStarted(tag: String)
    /// A refresh call joined the fetch already running for `tag`.
    case refreshJoined(tag: String)
    /// A refresh call for `tag` was skipped.
    case refreshSkipped(tag: String, reason: RefreshResult.SkippedReason)
    /// The fetch and save for `tag` succeeded after `duration`.
    case refreshSucceeded(tag: String, duration: Duration)
    /// The fetch or save for `tag` failed after `duration`.
    case refreshFailed(tag: String, error: any Error, duration: Duration)
    /// The fetch for `tag` failed for the `failedAttempts`th time with `error`; the
    /// ``RetryPolicy`` tries again after `delay`.
    case retryScheduled(tag: String, failedAttempts: Int, delay: Duration, error: any Error)
    /// A retry's delay for `tag` ran out and the fetch is tried again.
    case retryStarted(tag: String, attempt: Int)
    /// The fetch for `tag` was cancelled after `duration` because nobody waited for it any more.
    case refreshCancelled(tag: String, duration: Duration)
    /// The data source's `saveCache` threw for `tag`.
    case saveFailed(tag: String, error: any Error)
    /// The data source's `observeCache` failed for `tag`.
    case observeFailed(tag: String, error: any Error)
    /// The data source's `observeCache` for `tag` emitted nothing when subscribed. It must emit
    /// the current value at once: until it emits, the repository shows the cache as loading.
    case cacheNotEmittedOnSubscribe(tag: String)
    /// An event that made no sense in the repository's state was ignored.
    case eventIgnored(tag: String?, event: String)
    /// A setting that makes no sense was ignored; the text says which and why.
    case invalidConfiguration(String)
    /// The fetch metadata store reported a problem it recovered from.
    case metadataProblem(String)
    /// A ``FileCacheStore`` recovered from a problem: a cache file it could not read or decode
    /// (treated as no cache), a file it could not evict, a lock it could not take.
    case cacheStoreProblem(String)
    /// A ``FileCacheStore`` evicted `tag` for `reason`, and forgot its fetch time.
    case cacheEvicted(tag: String, reason: String)
    /// The ``Teller/uiScheduler`` ran nothing for `waited` after a repository first needed it,
    /// so no state is delivered and no cache is read. Reported once per `Teller`, on the
    /// background scheduler. A UI scheduler on a queue of its own
    /// (`SerialDispatchQueueScheduler(internalSerialQueueName:)`) always runs and is not watched.
    /// The usual cause: a command-line tool, server or test left the UI scheduler on the main
    /// queue, which only an app's run loop or `dispatchMain()` drains; give such a program a
    /// serial queue, `SerialDispatchQueueScheduler(internalSerialQueueName:)`.
    case uiSchedulerStalled(waited: Duration)
    /// A ``TellerOutbox`` sent the write `id` of `kind`, and the server accepted it.
    case writeSent(kind: String, id: UUID)
    /// Sending the write `id` of `kind` failed for the `attempts`th time with `error`. It is
    /// tried again after `retryIn`, or, when that is `nil` (the ``RetryPolicy`` gave up), its
    /// scope waits for ``Teller/networkDidBecomeAvailable()`` or ``Teller/appDidBecomeActive()``.
    case writeFailed(kind: String, id: UUID, attempts: Int, error: any Error, retryIn: Duration?)
    /// The server refused the write `id` of `kind` for good with `error`; it left the outbox.
    case writeRejected(kind: String, id: UUID, error: any Error)
    /// The server refused the write `id` of `kind` because the data changed elsewhere (`error`);
    /// `policy` says what happens to it (``OutboxConflictPolicy``).
    case writeConflicted(kind: String, id: UUID, error: any Error, policy: OutboxConflictPolicy)
    /// Writes of `kind` are pending but no handler is registered for it: they wait until
    /// ``TellerOutbox/register(kind:onConflict:send:)`` is called for it. Reported once per kind.
    case writeAwaitingHandler(kind: String)
    /// A ``TellerOutbox`` recovered from a problem with its journal or send lock; the text says
    /// which and what it means for the pending writes.
    case outboxProblem(String)

    /// A one-line description for logs.
    public var description: String {
        switch self {
        case .refreshStarted(let tag): "refresh started for \"\(tag)\""
        case .refreshJoined(let tag): "refresh joined the fetch running for \"\(tag)\""
        case .refreshSkipped(let tag, let reason): "refresh skipped for \"\(tag)\": \(reason)"
        case .refreshSucceeded(let tag, let duration): "refresh succeeded for \"\(tag)\" in \(duration)"
        case .refreshFailed(let tag, let error, let duration): "refresh failed for \"\(tag)\" in \(duration): \(error)"
        case .retryScheduled(let tag, let failedAttempts, let delay, let error):
            "fetch for \"\(tag)\" failed (attempt \(failedAttempts)), retrying in \(delay): \(error)"
        case .retryStarted(let tag, let attempt): "retrying the fetch for \"\(tag)\" (attempt \(attempt))"
        case .refreshCancelled(let tag, let duration): "refresh cancelled for \"\(tag)\" after \(duration)"
        case .saveFailed(let tag, let error): "saveCache failed for \"\(tag)\": \(error)"
        case .observeFailed(let tag, let error): "observeCache failed for \"\(tag)\": \(error)"
        case .cacheNotEmittedOnSubscribe(let tag):
            "observeCache for \"\(tag)\" emitted nothing when subscribed: it must emit the current value at once"
        case .eventIgnored(let tag, let event): "ignored \(event) for \"\(tag ?? "no requirements")\""
        case .invalidConfiguration(let problem): problem
        case .metadataProblem(let problem): problem
        case .cacheStoreProblem(let problem): problem
        case .cacheEvicted(let tag, let reason): "evicted the cache of \"\(tag)\" (\(reason)); it will be fetched again"
        case .uiSchedulerStalled(let waited):
            "the UI scheduler ran nothing for \(waited), so no state is delivered: outside an app (a command-line tool, "
                + "a server, a test) give Teller(uiScheduler:) a SerialDispatchQueueScheduler, or call dispatchMain()"
        case .writeSent(let kind, let id): "sent the \"\(kind)\" write \(id)"
        case .writeFailed(let kind, let id, let attempts, let error, let retryIn):
            "sending the \"\(kind)\" write \(id) failed (attempt \(attempts)): \(error); "
                + (retryIn.map { "retrying in \($0)" } ?? "waiting for the network or the app to become active")
        case .writeRejected(let kind, let id, let error): "the \"\(kind)\" write \(id) was rejected: \(error)"
        case .writeConflicted(let kind, let id, let error, let policy):
            "the \"\(kind)\" write \(id) conflicts with the server's data (\(error)): \(policy)"
        case .writeAwaitingHandler(let kind):
            "\"\(kind)\" writes are pending but no handler is registered for them: they wait for register(kind:onConflict:send:)"
        case .outboxProblem(let problem): problem
        }
    }
}
