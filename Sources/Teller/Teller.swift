import Foundation
@_spi(TellerInternals) import TellerRx

/// The environment repositories run in: where fetch metadata is stored, what time it is,
/// which schedulers run the data source's members, how long a fetch may take, and where log
/// events go. ``shared`` is used unless a repository is given another instance.
///
/// Repositories that share a `Teller` also share its one-fetch-per-tag rule: concurrent
/// refreshes of the same tag join one fetch.
///
/// ```swift
/// // A command-line tool or server has no main run loop: run the data source elsewhere.
/// let teller = Teller(uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui"))
/// let repository = TellerRepository(dataSource: ReposDataSource(), teller: teller)
/// ```
public final class Teller: Sendable {
    /// The instance repositories use by default: metadata in ``FileFetchMetadataStore/defaultURL``,
    /// the real clock, the main queue as UI scheduler, a utility-QoS background queue.
    public static let shared = Teller()

    /// Where fetch metadata (when each tag was last fetched) is kept.
    public let metadataStore: any FetchMetadataStore
    /// Where `observeCache` and `isCacheEmpty` are called and observed, and where
    /// `observe()` delivers states.
    public let uiScheduler: any SchedulerType
    /// Where `fetchFreshCache` and `saveCache` are called.
    public let backgroundScheduler: any SchedulerType
    /// How long a fetch may take before it fails with ``TellerError/fetchTimedOut(tag:seconds:)``;
    /// `nil` waits forever.
    public let fetchTimeout: RxTimeInterval?
    /// How failed fetches are tried again, unless a data source has its own
    /// ``TellerDataSource/retryPolicy``. ``RetryPolicy/never`` by default.
    public let retryPolicy: RetryPolicy

    private let clock: @Sendable () -> Date
    private let loggerBox: LoggerBox
    let coordinator: RefreshCoordinator
    /// What every live repository must hear: metadata that changed (so every repository showing
    /// it updates at once) and refresh triggers.
    let notices = PublishSubject<RepositoryNotice>()
    private let invalidations = LockedState(Invalidations())
    /// How many live repositories show each tag (their requirements' tag): those tags are in use,
    /// and a cache store never evicts them.
    private let shownTags = LockedState<[String: Int]>([:])
    /// The outboxes made on this Teller: repositories show the writes they hold.
    private let outboxes = LockedState<[WeakOutbox]>([])
    private let lifecycleObservation: AppLifecycleObservation
    /// `nil` for a UI scheduler that always runs what it is given (a queue of its own): nothing
    /// to watch.
    private let uiWatch: UISchedulerWatch?

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - metadataStore: Where fetch metadata is kept; `nil` for a file at
    ///     ``FileFetchMetadataStore/defaultURL``.
    ///   - clock: The current time; inject a fixed or stepping clock in tests.
    ///   - uiScheduler: Where the data source's observe members run and states are delivered.
    ///   - backgroundScheduler: Where fetch and save run, and where retry delays and refresh
    ///     intervals are timed.
    ///   - fetchTimeout: How long a fetch may take; `nil` for no limit.
    ///   - retryPolicy: How failed fetches are tried again; ``RetryPolicy/never`` by default.
    ///   - appLifecycleNotifications: Where the app's "did become active" notifications are
    ///     posted (UIKit's and AppKit's), each of which calls ``appDidBecomeActive()``; `nil` to
    ///     call it yourself only. The default is `NotificationCenter.default` on Apple platforms
    ///     and `nil` elsewhere, where no framework posts them. Tests pass a
    ///     `NotificationCenter()` of their own.
    ///   - logger: Receives log events; `nil` (the default) logs nothing.
    public init(
        metadataStore: (any FetchMetadataStore)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        uiScheduler: any SchedulerType = MainScheduler.instance,
        backgroundScheduler: any SchedulerType = ConcurrentDispatchQueueScheduler(qos: .utility),
        fetchTimeout: RxTimeInterval? = .seconds(60),
        retryPolicy: RetryPolicy = .never,
        appLifecycleNotifications: NotificationCenter? = Teller.defaultAppLifecycleNotifications,
        logger: (@Sendable (TellerLogEvent) -> Void)? = nil
    ) {
        let loggerBox = LoggerBox(logger)
        let log: @Sendable (TellerLogEvent) -> Void = { event in loggerBox.logger?(event) }
        self.loggerBox = loggerBox
        self.metadataStore =
            metadataStore
            ?? FileFetchMetadataStore(url: FileFetchMetadataStore.defaultURL) { problem in
                log(.metadataProblem(problem.description))
            }
        self.clock = clock
        self.uiScheduler = uiScheduler
        self.backgroundScheduler = backgroundScheduler
        self.fetchTimeout = fetchTimeout
        self.retryPolicy = retryPolicy
        coordinator = RefreshCoordinator(log: log)
        let alwaysRuns = (uiScheduler as? any SelfDrainingScheduler)?.drainsItself ?? false
        uiWatch = alwaysRuns ? nil : UISchedulerWatch()
        lifecycleObservation = AppLifecycleObservation(center: appLifecycleNotifications)
        lifecycleObservation.start { [weak self] in self?.appDidBecomeActive() }
    }

    /// Where a `Teller` listens for the app becoming active unless told otherwise:
    /// `NotificationCenter.default` on Apple platforms, where UIKit and AppKit post there, and
    /// `nil` elsewhere, where nothing does (a server's `Teller` registers no observer it would
    /// never need).
    public static var defaultAppLifecycleNotifications: NotificationCenter? {
        #if canImport(Darwin)
        .default
        #else
        nil
        #endif
    }

    /// Receives log events; `nil` logs nothing. Called on whatever thread the event happens.
    public var logger: (@Sendable (TellerLogEvent) -> Void)? {
        get { loggerBox.logger }
        set { loggerBox.logger = newValue }
    }

    /// The current time, from the injected clock.
    public var now: Date {
        clock()
    }

    // MARK: Forgetting and invalidating

    /// Forgets every tag's fetch metadata, so every repository behaves as if nothing was ever
    /// fetched. Call it in tests' set-up for isolation, or when a user signs out.
    ///
    /// Live repositories show `.noCache` at once, and those observed with automatic refresh
    /// fetch again. A failure to remove the durable copy is reported to the logger, never thrown.
    public func clear() {
        do {
            try metadataStore.removeAll()
        } catch {
            log(.metadataProblem("clear() could not remove the stored metadata: \(error)"))
        }
        metadataChanged(.all)
    }

    /// Forgets the fetch metadata of one tag: every repository showing it shows `.noCache` at
    /// once, and those observed with automatic refresh fetch it again. Other tags are untouched.
    ///
    /// A failure to make the removal durable is reported to the logger, never thrown; the
    /// running process forgets the tag either way.
    ///
    /// - Parameter tag: The requirements' ``RepositoryRequirements/tag``.
    public func clear(tag: String) {
        do {
            try metadataStore.setMetadata(nil, forTag: tag)
        } catch {
            log(.metadataProblem("clear(tag:) could not remove the stored metadata of \(tag): \(error)"))
        }
        metadataChanged(.tag(tag))
    }

    /// Forgets the fetch metadata of every tag in a branch of the tag hierarchy, as
    /// ``clear(tag:)`` does for each: `clear(tagsUnder: "users/42")` forgets `"users/42"`,
    /// `"users/42/posts"` and `"users/42/likes"`, not `"users/420"` (see ``TagPrefix``). Cached
    /// data is not touched, as with ``clear(tag:)``: remove it from your store yourself.
    ///
    /// Safe from any thread. A failure to make the removal durable, or a custom
    /// ``FetchMetadataStore`` that cannot forget a branch
    /// (``FetchMetadataStoreError/cannotRemoveTagsUnder(_:)``), is reported to the logger as
    /// ``TellerLogEvent/metadataProblem(_:)``, never thrown.
    ///
    /// - Parameter prefix: The branch, such as `"users/\(id)"`.
    public func clear(tagsUnder prefix: TagPrefix) {
        do {
            try metadataStore.removeMetadata(tagsUnder: prefix)
        } catch {
            log(.metadataProblem("clear(tagsUnder:) could not remove the stored metadata under \(prefix): \(error)"))
        }
        metadataChanged(.tagsUnder(prefix))
    }

    /// Marks the data of one tag as too old, whatever its age: every repository showing it that
    /// is observed now refreshes at once (one fetch for all of them), and the others refresh
    /// the next time they would for a too-old cache (on `observe()` with automatic refresh, or
    /// on an unforced ``TellerRepository/refresh(force:)``). The cache stays on screen meanwhile.
    ///
    /// Call it when you learn the data changed elsewhere: a push notification, a write made
    /// through another API. The mark lasts until a fetch that started after it saves, and only
    /// while the process runs. An observed repository refreshes even when its data source turned
    /// ``TellerDataSource/automaticallyRefresh`` off: invalidating is an explicit request.
    ///
    /// - Parameter tag: The requirements' ``RepositoryRequirements/tag``.
    public func invalidate(tag: String) {
        invalidations.withLock { $0.invalidate(tag) }
        metadataChanged(.invalidated(tag))
    }

    /// Marks the data of every tag in a branch of the tag hierarchy as too old, as
    /// ``invalidate(tag:)`` does for each: `invalidate(tagsUnder: "users/42")` marks
    /// `"users/42"`, `"users/42/posts"` and `"users/42/likes"`, not `"users/420"` (see
    /// ``TagPrefix``). It covers tags no repository shows yet too: one created later for
    /// `"users/42/followers"` refreshes as well, unless its tag was fetched after this call.
    ///
    /// Each tag's mark lasts until a fetch of that tag that started after the call saves, and
    /// only while the process runs. Safe from any thread; it cannot fail.
    ///
    /// - Parameter prefix: The branch, such as `"users/\(id)"`.
    public func invalidate(tagsUnder prefix: TagPrefix) {
        invalidations.withLock { $0.invalidate(tagsUnder: prefix) }
        metadataChanged(.invalidatedUnder(prefix))
    }

    /// Marks the data of every tag as too old: ``invalidate(tag:)`` for all of them at once.
    public func invalidateAll() {
        invalidations.withLock { $0.invalidateAll() }
        metadataChanged(.allInvalidated)
    }

    // MARK: Refresh triggers

    /// Tells Teller the app came to the foreground: every observed repository whose cache is
    /// too old (or invalidated, or never fetched) and that refreshes automatically refreshes
    /// now, one fetch per tag.
    ///
    /// A `Teller` created with `appLifecycleNotifications` (the default) calls this itself when
    /// UIKit or AppKit posts its "did become active" notification. Elsewhere (Linux servers,
    /// tests, watchOS) call it yourself. Safe from any thread.
    public func appDidBecomeActive() {
        notices.onNext(.refresh(.appBecameActive))
    }

    /// Tells Teller the network is reachable again: every observed repository whose cache is too
    /// old (or invalidated, or never fetched) and that refreshes automatically refreshes now, one
    /// fetch per tag. A refresh that failed, for instance while offline, is tried again this way.
    ///
    /// Wire it to your reachability source (`NWPathMonitor` on Apple platforms). Safe from any
    /// thread.
    public func networkDidBecomeAvailable() {
        notices.onNext(.refresh(.networkAvailable))
    }

    // MARK: Internal

    func metadataChanged(_ change: MetadataChange) {
        notices.onNext(.metadataChanged(change))
    }

    /// What a fetch that starts now passes to ``recordFetched(tag:startedAt:)`` once it saved.
    var invalidationStamp: Int {
        invalidations.withLock { $0.stamp }
    }

    /// A fetch of `tag` that started at `stamp` (an ``invalidationStamp``) saved its data.
    func recordFetched(tag: String, startedAt stamp: Int) {
        invalidations.withLock { $0.fetched(tag, startedAt: stamp) }
        // Outside the lock: outboxes keep the writes the server took until a fetch has them.
        for outbox in outboxes.withLock({ $0.compactMap(\.outbox) }) {
            outbox.fetched(tag: tag, startedAt: stamp)
        }
    }

    /// Marks `tag` as ``invalidate(tag:)`` does, without telling repositories (the caller does,
    /// with ``metadataChanged(_:)``, once its own lock is released), and returns the mark's
    /// number: a fetch that started at it or later (``recordFetched(tag:startedAt:)``) has what
    /// made the mark.
    func markInvalidated(tag: String) -> Int {
        invalidations.withLock { invalidations in
            invalidations.invalidate(tag)
            return invalidations.stamp
        }
    }

    /// Whether a fetch of `tag` that started at `stamp` must drop its data unsaved: a newer fetch
    /// saved already (see ``Invalidations``).
    func isSuperseded(tag: String, startedAt stamp: Int) -> Bool {
        invalidations.withLock { $0.isSuperseded(tag, startedAt: stamp) }
    }

    /// The metadata of `tag` and whether it is invalidated, or `nil` when it was never fetched.
    func storedMetadata(tag: String) -> (metadata: FetchMetadata, isInvalidated: Bool)? {
        guard let metadata = metadataStore.metadata(forTag: tag) else { return nil }
        return (metadata, invalidations.withLock { $0.isInvalidated(tag) })
    }

    /// A repository is about to hand work to the ``uiScheduler`` (a cache read, or states for its
    /// observers): the first call starts watching whether that scheduler runs at all (see
    /// ``UISchedulerWatch``); every later one costs one lock. A UI scheduler on a queue of its own
    /// always runs, and is not watched.
    func uiSchedulerNeeded() {
        uiWatch?.start(ui: uiScheduler, background: backgroundScheduler) { [weak self] waited in
            self?.log(.uiSchedulerStalled(waited: waited))
        }
    }

    func log(_ event: TellerLogEvent) {
        loggerBox.logger?(event)
    }

    /// Logs `events` in order, taking the logger out of its lock once.
    func log(_ events: [TellerLogEvent]) {
        guard let logger = loggerBox.logger else { return }
        for event in events { logger(event) }
    }

    /// Logs `event` `count` times, taking the logger out of its lock once (a burst of refresh
    /// calls logs one event per call).
    func log(_ event: TellerLogEvent, count: Int) {
        guard let logger = loggerBox.logger else { return }
        for _ in 0..<count { logger(event) }
    }

    /// An outbox was made on this Teller: repositories show its pending writes from now on.
    func outboxCreated(_ outbox: TellerOutbox) {
        outboxes.withLock { outboxes in
            outboxes.removeAll { $0.outbox == nil }
            outboxes.append(WeakOutbox(outbox: outbox))
        }
    }

    /// The writes to `tag` waiting in this Teller's outboxes, oldest first, and their latest
    /// failure.
    func writes(tag: String) -> TagWrites {
        let live = outboxes.withLock { $0.compactMap(\.outbox) }
        // Outside the lock: each outbox reads under its own.
        let pending = live.flatMap { $0.pending(tag: tag) }
        // Each outbox's failure read once: a lazy `compactMap(...).first` reads the one it finds
        // twice (to find it, then to return it), and force-unwraps the second read, which another
        // thread may have cleared in between.
        var failure: (any Error)?
        for outbox in live where failure == nil {
            failure = outbox.lastFailure(tag: tag)
        }
        return TagWrites(
            pending: live.count > 1 ? pending.sorted { $0.createdAt < $1.createdAt } : pending,
            taken: live.flatMap { $0.taken(tag: tag) },
            failure: failure
        )
    }

    /// The app's writes to `tag` (`nil`: to any tag) changed, those waiting or their failures;
    /// `sent` left because the server took them (this process's sends, or another process's
    /// found in the journal). Repositories show them again.
    func writesChanged(tag: String?, sent: [OutboxRecord] = []) {
        notices.onNext(.writesChanged(tag: tag, sent: sent))
    }

    /// A live repository stopped showing `old` (`nil`: nothing) and shows `new` now.
    func shownTagChanged(from old: String?, to new: String?) {
        guard old != new else { return }
        shownTags.withLock { counts in
            if let new { counts[new, default: 0] += 1 }
            if let old {
                let count = (counts[old] ?? 1) - 1
                counts[old] = count > 0 ? count : nil
            }
        }
    }

    /// The tags live repositories show now.
    var tagsInUse: Set<String> {
        shownTags.withLock { Set($0.keys) }
    }

}

/// The logger, behind a lock. The closure sits in a struct rather than directly in the generic
/// state: a closure read back out of generic storage is wrapped in a conversion thunk on every
/// read, which a busy logger would pay per event.
private final class LoggerBox: Sendable {
    private struct Slot {
        var logger: (@Sendable (TellerLogEvent) -> Void)?
    }

    private let slot: LockedState<Slot>

    init(_ logger: (@Sendable (TellerLogEvent) -> Void)?) {
        slot = LockedState(Slot(logger: logger))
    }

    var logger: (@Sendable (TellerLogEvent) -> Void)? {
        // The whole slot comes out of the lock, not the closure alone, which would be wrapped
        // in a conversion thunk (an allocation per logged event).
        get { slot.withLock { $0 }.logger }
        set { slot.withLock { $0.logger = newValue } }
    }
}

/// An outbox a ``Teller`` knows of, without keeping it alive.
private struct WeakOutbox {
    weak var outbox: TellerOutbox?
}

/// The app's writes to one tag, as outboxes hold them: those that wait, oldest first, those the
/// server took that no fetch brought back yet, and the error of their latest failure (see
/// ``TellerOutbox/lastFailure(tag:)``).
struct TagWrites {
    var pending: [OutboxRecord] = []
    var taken: [OutboxRecord] = []
    var failure: (any Error)?
}
