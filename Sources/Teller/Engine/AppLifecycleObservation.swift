import Foundation
@_spi(TellerInternals) import TellerRx

/// Calls back when the app becomes active, by observing UIKit's and AppKit's notifications on a
/// notification center. The notification names are spelled out rather than imported, so Teller
/// needs neither framework, builds everywhere, and tests can post them on a center of their own.
final class AppLifecycleObservation: Sendable {
    /// `UIApplication.didBecomeActiveNotification` (iOS, iPadOS, tvOS, visionOS, Mac Catalyst) and
    /// `NSApplication.didBecomeActiveNotification` (macOS).
    static let didBecomeActiveNames = [
        Notification.Name("UIApplicationDidBecomeActiveNotification"),
        Notification.Name("NSApplicationDidBecomeActiveNotification"),
    ]

    // Unchecked: `NotificationCenter` is thread-safe, and the tokens are only handed back to it.
    private let center: UncheckedSendable<NotificationCenter>?
    /// The observer tokens, removed when the observation ends.
    private let tokens = LockedState<[UncheckedSendable<any NSObjectProtocol>]>([])

    init(center: NotificationCenter?) {
        self.center = center.map(UncheckedSendable.init)
    }

    /// Starts observing; `becameActive` runs on the thread that posts the notification.
    func start(_ becameActive: @escaping @Sendable () -> Void) {
        guard let center = center?.value else { return }
        let tokens = Self.didBecomeActiveNames.map { name in
            UncheckedSendable(center.addObserver(forName: name, object: nil, queue: nil) { _ in becameActive() })
        }
        self.tokens.withLock { $0 = tokens }
    }

    deinit {
        guard let center = center?.value else { return }
        for token in tokens.withLock({ $0 }) {
            center.removeObserver(token.value)
        }
    }
}
