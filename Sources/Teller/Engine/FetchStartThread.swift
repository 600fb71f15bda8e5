#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Marks the thread that is starting a data source's fetch on the background scheduler, for as
/// long as the start runs.
///
/// A fetch that answers at once (a mock, a cache in memory, a `Single.just`) answers on that
/// thread before the start returns: already on the background scheduler, where a first page is
/// saved. Its answer is handled there, where scheduling it again would cost a thread wake-up
/// and nothing else. An answer on any other thread, or later on this one, is not marked and
/// still moves to the background scheduler (see ``RetryingFetch/answersOnBackground``).
enum FetchStartThread {
    /// Runs `start` with this thread marked, then restores the mark it found (a fetch may start
    /// another one inside its own start).
    static func run(_ start: () -> Void) {
        let previous = pthread_getspecific(key)
        // Any non-nil pointer: the mark owns nothing, so the key needs no destructor.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, previous) }
        start()
    }

    /// Whether this thread is inside ``run(_:)``.
    static var isCurrent: Bool {
        pthread_getspecific(key) != nil
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        // Only when the process ran out of thread keys (PTHREAD_KEYS_MAX, 1,024 on Linux):
        // nothing could run correctly then.
        precondition(result == 0, "pthread_key_create failed with \(result)")
        return key
    }()
}
