import Foundation
@_spi(TellerInternals) import TellerRx

/// The in-process side of one cache folder, shared by every ``FileCacheStore`` on it, whatever
/// its value type: the writers' lock, and the observations to tell about changes.
///
/// One hub per folder (its path with symbolic links resolved) while any store uses it, so a
/// save through one store reaches the observers of another, and the tags any of them observe
/// count as in use for eviction.
final class CacheFolderHub: Sendable {
    /// The folder's path, symbolic links resolved.
    let path: String
    /// Serializes this process's writers; the lock file does the same across processes.
    private let writers = Lock()
    private let observations = LockedState(Observations())

    private init(path: String) {
        self.path = path
    }

    /// The hub of the folder at `path` (already resolved), created on first use.
    static func hub(forPath path: String) -> CacheFolderHub {
        hubs.withLock { hubs in
            hubs = hubs.filter { $0.value.hub != nil }
            if let hub = hubs[path]?.hub { return hub }
            let hub = CacheFolderHub(path: path)
            hubs[path] = WeakHub(hub: hub)
            return hub
        }
    }

    private struct WeakHub {
        weak var hub: CacheFolderHub?
    }

    private static let hubs = LockedState<[String: WeakHub]>([:])

    // MARK: Writing

    /// Runs `body` while no other writer of this folder, in this process or another, runs.
    ///
    /// - Parameter body: Gets the error of taking the lock file, if that failed (the write goes
    ///   ahead without it: it may still succeed, and if the folder is unwritable the write's own
    ///   error says so).
    func exclusively<Result>(_ body: (_ lockFailure: (any Error)?) throws -> Result) rethrows -> Result {
        try writers.withLock {
            var lock = FileLock()
            defer { lock.close() }
            do {
                try lock.acquire(path: path + "/.lock")
            } catch {
                return try body(error)
            }
            return try body(nil)
        }
    }

    // MARK: Observing

    private struct Observations {
        var byTag: [String: [UInt64: TagObservation]] = [:]
        var nextID: UInt64 = 0
    }

    /// Registers `observation` of `tag`; it is told about every change until removed.
    func add(_ observation: TagObservation, tag: String) -> UInt64 {
        observations.withLock { observations in
            observations.nextID += 1
            observations.byTag[tag, default: [:]][observations.nextID] = observation
            return observations.nextID
        }
    }

    func remove(_ id: UInt64, tag: String) {
        observations.withLock { observations in
            observations.byTag[tag]?[id] = nil
            if observations.byTag[tag]?.isEmpty == true { observations.byTag[tag] = nil }
        }
    }

    /// The tags observed in this process: in use, so never evicted.
    var observedTags: Set<String> {
        observations.withLock { Set($0.byTag.keys) }
    }

    /// Tells the observers of `tags` that their files changed; `nil` tells every observer.
    /// Each reads its file again and emits, on this thread unless it is already emitting.
    func changed(_ tags: [String]?) {
        let toTell = observations.withLock { observations -> [TagObservation] in
            guard let tags else { return observations.byTag.values.flatMap(\.values) }
            return tags.flatMap { observations.byTag[$0].map { Array($0.values) } ?? [] }
        }
        for observation in toTell { observation.changed() }
    }
}

/// One subscription to ``FileCacheStore/observe(tag:)``: emits the file's current value when
/// subscribed and after every change, one emission at a time.
///
/// A change that arrives while the subscription is emitting (on another thread) does not emit
/// at the same time: it marks the value stale, and the emitting thread reads and emits once more.
/// So observers are never called concurrently, and the last emission always follows the last
/// change.
final class TagObservation: Sendable {
    private struct State {
        /// A thread is in `drain()`. True from creation: the subscribing thread emits first.
        var isEmitting = true
        var isStale = false
        var isDisposed = false
    }

    private let state = LockedState(State())
    private let emitCurrentValue: @Sendable () -> Void

    /// - Parameter emitCurrentValue: Reads the file and emits what it holds.
    init(emitCurrentValue: @escaping @Sendable () -> Void) {
        self.emitCurrentValue = emitCurrentValue
    }

    /// The first emission, on the subscribing thread, once registered with the hub.
    func start() {
        drain()
    }

    /// The file changed.
    func changed() {
        let shouldDrain = state.withLock { state -> Bool in
            guard !state.isDisposed else { return false }
            guard !state.isEmitting else {
                state.isStale = true
                return false
            }
            state.isEmitting = true
            return true
        }
        if shouldDrain { drain() }
    }

    func dispose() {
        state.withLock { $0.isDisposed = true }
    }

    /// Emits until no change arrived during the last emission. Only the thread that set
    /// `isEmitting` runs it.
    private func drain() {
        while true {
            if state.withLock({ $0.isDisposed }) { return }
            emitCurrentValue()
            let again = state.withLock { state -> Bool in
                if state.isStale && !state.isDisposed {
                    state.isStale = false
                    return true
                }
                state.isEmitting = false
                return false
            }
            if !again { return }
        }
    }
}
