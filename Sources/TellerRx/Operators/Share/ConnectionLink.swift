/// The connect/disconnect half of `share` and `refCount`, as a state machine whose methods
/// return the step the caller must take after leaving the lock.
///
/// Sessions are numbered. The owner says which session currently wants a live connection
/// (`wanted`), and the link answers with one step at a time: connect for that session, or
/// dispose a connection that belongs to an ended session. While a step is in flight on one
/// thread, `reconcile` returns `nil` to everyone else; the busy thread calls it again when its
/// step is done and so picks up whatever changed meanwhile. This way the source is never
/// subscribed twice at once, connecting never overlaps disconnecting, and no lock is held while
/// the source's subscribe or dispose (user code) runs.
struct ConnectionLink {
    /// A step to take outside the lock, then report with ``didConnect(session:subscription:)``
    /// or ``didDisconnect()``.
    enum Action {
        /// Subscribe to the source for `session`.
        case connect(session: UInt64)
        /// Dispose the connection of an ended session.
        case disconnect(any Disposable)
    }

    private enum Phase {
        case idle
        case connecting(session: UInt64)
        case connected(session: UInt64, subscription: any Disposable)
        case disconnecting
    }

    private var phase = Phase.idle

    /// Whether a thread is connecting or disconnecting right now.
    var isBusy: Bool {
        switch phase {
        case .connecting, .disconnecting: true
        case .idle, .connected: false
        }
    }

    /// Whether a connection exists or is being made (for tests and assertions).
    var isConnected: Bool {
        switch phase {
        case .connecting, .connected: true
        case .idle, .disconnecting: false
        }
    }

    /// The next step towards having exactly the connection `wanted` asks for.
    ///
    /// - Parameter wanted: The session that wants a connection, or `nil` if none does.
    /// - Returns: The step the caller must take, or `nil` if there is nothing to do or another
    ///   thread is busy with a step (it will reconcile again when it is done).
    mutating func reconcile(wanted: UInt64?) -> Action? {
        switch phase {
        case .connecting, .disconnecting:
            return nil
        case .idle:
            guard let wanted else { return nil }
            phase = .connecting(session: wanted)
            return .connect(session: wanted)
        case .connected(let session, let subscription):
            if session == wanted { return nil }
            phase = .disconnecting
            return .disconnect(subscription)
        }
    }

    /// Records that the subscription for `session` returned.
    mutating func didConnect(session: UInt64, subscription: any Disposable) {
        assert(isConnecting(session), "didConnect for a session that was not connecting")
        phase = .connected(session: session, subscription: subscription)
    }

    /// Records that the disconnect step finished.
    mutating func didDisconnect() {
        assert(isBusy, "didDisconnect without a disconnect step")
        phase = .idle
    }

    private func isConnecting(_ session: UInt64) -> Bool {
        if case .connecting(let current) = phase { return current == session }
        return false
    }
}
