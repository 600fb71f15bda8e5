import Foundation
import TellerRx

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

    private let clock: @Sendable () -> Date
    private let loggerBox: LoggerBox
    let coordinator: RefreshCoordinator
    /// Metadata that changed, so every repository showing it updates at once.
    let metadataChanges = PublishSubject<MetadataChange>()

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - metadataStore: Where fetch metadata is kept; `nil` for a file at
    ///     ``FileFetchMetadataStore/defaultURL``.
    ///   - clock: The current time; inject a fixed or stepping clock in tests.
    ///   - uiScheduler: Where the data source's observe members run and states are delivered.
    ///   - backgroundScheduler: Where fetch and save run.
    ///   - fetchTimeout: How long a fetch may take; `nil` for no limit.
    ///   - logger: Receives log events; `nil` (the default) logs nothing.
    public init(
        metadataStore: (any FetchMetadataStore)? = nil,
        clock: @escaping @Sendable () -> Date = { Date() },
        uiScheduler: any SchedulerType = MainScheduler.instance,
        backgroundScheduler: any SchedulerType = ConcurrentDispatchQueueScheduler(qos: .utility),
        fetchTimeout: RxTimeInterval? = .seconds(60),
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
        coordinator = RefreshCoordinator(log: log)
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

    /// Forgets every tag's fetch metadata, so every repository behaves as if nothing was ever
    /// fetched. Call it in tests' set-up for isolation, or when a user signs out.
    ///
    /// A failure to remove the durable copy is reported to the logger, never thrown.
    public func clear() {
        do {
            try metadataStore.removeAll()
        } catch {
            log(.metadataProblem("clear() could not remove the stored metadata: \(error)"))
        }
        metadataChanges.onNext(.all)
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
        metadataChanges.onNext(.tag(tag))
    }

    func log(_ event: TellerLogEvent) {
        loggerBox.logger?(event)
    }

    func lastFetched(tag: String) -> Date? {
        metadataStore.metadata(forTag: tag)?.lastFetched
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
        get { slot.withLock { $0.logger } }
        set { slot.withLock { $0.logger = newValue } }
    }
}
