/// A group of disposables disposed together.
///
/// ``insert(_:)`` returns a key with which one member can be removed (and disposed) early.
/// Once the group is disposed, anything inserted is disposed at once.
public final class CompositeDisposable: Cancelable {
    /// Identifies one member of a ``CompositeDisposable``, for ``CompositeDisposable/remove(for:)``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    private struct State {
        var members: [UInt64: any Disposable]? = [:]
        var nextKey: UInt64 = 0
    }

    private let state = LockedState(State())

    /// Creates an empty group.
    public init() {}

    /// Creates a group holding the given disposables.
    public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// Creates a group holding the given disposables.
    public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable)
    {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// Creates a group holding `disposables`.
    ///
    /// - Parameter disposables: The initial members.
    public init(disposables: [any Disposable]) {
        state.withLock { state in
            for disposable in disposables {
                state.members?[state.nextKey] = disposable
                state.nextKey += 1
            }
        }
    }

    /// Whether the group has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.members == nil }
    }

    /// The number of members not yet disposed or removed.
    public var count: Int {
        state.withLock { $0.members?.count ?? 0 }
    }

    /// Adds a member.
    ///
    /// - Parameter disposable: The member to add; disposed at once if the group is disposed.
    /// - Returns: The key to remove it with, or `nil` if the group was already disposed.
    @discardableResult
    public func insert(_ disposable: any Disposable) -> DisposeKey? {
        let key = state.withLock { state -> DisposeKey? in
            guard state.members != nil else { return nil }
            let key = state.nextKey
            state.nextKey += 1
            state.members?[key] = disposable
            return DisposeKey(value: key)
        }
        if key == nil { disposable.dispose() }
        return key
    }

    /// Removes the member with `key` and disposes it. Does nothing for an unknown key.
    ///
    /// - Parameter key: The key ``insert(_:)`` returned.
    public func remove(for key: DisposeKey) {
        let member = state.withLock { $0.members?.removeValue(forKey: key.value) }
        member?.dispose()
    }

    /// Disposes every member and the group. Safe from any thread; only the first call acts.
    public func dispose() {
        let members = state.withLock { state -> [UInt64: any Disposable]? in
            defer { state.members = nil }
            return state.members
        }
        guard let members else { return }
        for key in members.keys.sorted() {
            members[key]?.dispose()
        }
    }
}
