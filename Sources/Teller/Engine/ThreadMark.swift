#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks the thread that runs one of Teller's own steps on a scheduler, for as long as the step
/// runs. What the step's data-source call sends back on that thread before the step returns is
/// on that scheduler already: it is handled there at once, where scheduling it again would cost
/// a thread wake-up and nothing else. What comes on any other thread, or later on this one, is
/// not marked and still goes through the scheduler.
struct ThreadMark: Sendable {
    /// A data source's fetch being started on the background scheduler. A fetch that answers at
    /// once (a mock, a cache in memory, a `Single.just`) is saved in that turn (see
    /// ``RetryingFetch/answersOnBackground``).
    static let fetchStart = ThreadMark()
    /// A data source's cache observation being subscribed on the UI scheduler. A store's current
    /// value, sent while it is subscribed, is delivered in that turn (see
    /// ``readCache(on:failingWith:observe:isEmpty:)``).
    static let cacheReadStart = ThreadMark()

    private let key: pthread_key_t

    private init() {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        // Only when the process ran out of thread keys (PTHREAD_KEYS_MAX, 1,024 on Linux):
        // Teller makes two, once.
        precondition(result == 0, "pthread_key_create failed with \(result)")
        self.key = key
    }

    /// Runs `step` with this thread marked, then restores the mark it found (a step may run
    /// another one inside itself).
    func run(_ step: () -> Void) {
        let previous = pthread_getspecific(key)
        // Any non-nil pointer: the mark owns nothing, so the key needs no destructor.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, previous) }
        step()
    }

    /// Whether this thread is inside ``run(_:)`` of this mark.
    var isCurrent: Bool {
        pthread_getspecific(key) != nil
    }
}
