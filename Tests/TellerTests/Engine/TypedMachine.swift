import Foundation
import TellerRx

@testable import Teller

/// The types a repository kind's ``RepositoryMachine`` carries sealed: what a test that drives a
/// machine by hand writes its inputs with and reads its actions as.
protocol TypedKind {
    associatedtype Requirements: RepositoryRequirements
    associatedtype Cache: Sendable
    associatedtype Shown: Sendable
    associatedtype View
    associatedtype StoredExtra
    associatedtype ExtraInput
    associatedtype ExtraAction
    associatedtype Extension: MachineExtension
}

/// A plain repository's types.
enum PlainKind<Requirements: RepositoryRequirements, Cache: Sendable>: TypedKind {
    typealias Shown = Cache
    typealias View = Void
    typealias StoredExtra = Never
    typealias ExtraInput = Never
    typealias ExtraAction = Never
    typealias Extension = NoExtension
}

/// A paging repository's types.
enum PagingKind<DataSource: PagingRepositoryDataSource>: TypedKind {
    typealias Requirements = DataSource.Requirements
    typealias Cache = DataSource.PagingCache
    typealias Shown = PagedCache<DataSource.PagingCache>
    typealias View = DataSource.PagingRequirements
    typealias StoredExtra = PagingExtension<DataSource>.FirstPageProgress
    typealias ExtraInput = PagingInput<DataSource>
    typealias ExtraAction = PagingAction<DataSource>
    typealias Extension = PagingExtension<DataSource>
}

/// A plain repository's machine, driven with typed inputs.
typealias RepositoryStateMachine<Requirements: RepositoryRequirements, Cache: Sendable> = TypedMachine<
    PlainKind<Requirements, Cache>
>

/// A paging repository's machine, driven with typed inputs.
typealias PagingStateMachine<DataSource: PagingRepositoryDataSource> = TypedMachine<PagingKind<DataSource>>

/// ``StoredFetch`` with its extra value typed.
struct TypedStoredFetch<Extra> {
    var lastFetched: Date
    var extra: Extra?
    var isInvalidated = false

    init(lastFetched: Date, extra: Extra? = nil, isInvalidated: Bool = false) {
        self.lastFetched = lastFetched
        self.extra = extra
        self.isInvalidated = isInvalidated
    }

    var sealed: StoredFetch {
        StoredFetch(lastFetched: lastFetched, extra: extra.map(Sealed.init), isInvalidated: isInvalidated)
    }
}

/// A ``RepositoryMachine`` whose inputs and actions are written with the kind's own types, as the
/// engine's would be once sealed or opened: the tests read as the machine's decisions, while the
/// machine itself stays what the engine runs. Everything else is read from the machine.
@dynamicMemberLookup
struct TypedMachine<Kind: TypedKind> {
    typealias Configuration = RepositoryMachine.Configuration
    typealias Observer = StateObserver

    enum Input {
        case setRequirements(
            Kind.Requirements?,
            stored: TypedStoredFetch<Kind.StoredExtra>?,
            writes: TagWrites = TagWrites()
        )
        case observed
        case refresh([RefreshCall])
        case refreshCallLeft(RefreshCall)
        case flightLeft(UInt64, stored: TypedStoredFetch<Kind.StoredExtra>?)
        case flightSaving(UInt64)
        case flightRetry(UInt64, pending: PendingRetry?)
        case flightFinished(
            UInt64,
            result: RefreshResult,
            stored: TypedStoredFetch<Kind.StoredExtra>?,
            saved: Kind.StoredExtra?
        )
        case cacheEmitted(observation: Int, cache: Kind.Cache, isEmpty: Bool)
        case cacheFailed(observation: Int, error: any Error)
        case cacheSilent(observation: Int)
        case metadataChanged(tag: String, stored: TypedStoredFetch<Kind.StoredExtra>?, invalidation: Bool = false)
        case extra(Kind.ExtraInput)
        case observerAdded(Observer)
        case observerRemoved(UInt64)
        case triggered(RefreshTrigger)
        case pendingWritesChanged([OutboxRecord])
        case writesChanged(TagWrites, sent: OutboxRecord?)
        case shutDown

        var sealed: EngineInput {
            switch self {
            case .setRequirements(let requirements, let stored, let writes):
                .setRequirements(requirements, stored: stored?.sealed, writes: writes)
            case .observed: .observed
            case .refresh(let calls): .refresh(calls)
            case .refreshCallLeft(let call): .refreshCallLeft(call)
            case .flightLeft(let flight, let stored): .flightLeft(flight, stored: stored?.sealed)
            case .flightSaving(let flight): .flightSaving(flight)
            case .flightRetry(let flight, let pending): .flightRetry(flight, pending: pending)
            case .flightFinished(let flight, let result, let stored, let saved):
                .flightFinished(flight, result: result, stored: stored?.sealed, saved: saved.map(Sealed.init))
            case .cacheEmitted(let observation, let cache, let isEmpty):
                .cacheEmitted(observation: observation, cache: Sealed(cache), isEmpty: isEmpty)
            case .cacheFailed(let observation, let error): .cacheFailed(observation: observation, error: error)
            case .cacheSilent(let observation): .cacheSilent(observation: observation)
            case .metadataChanged(let tag, let stored, let invalidation):
                .metadataChanged(tag: tag, stored: stored?.sealed, invalidation: invalidation)
            case .extra(let input): .extra(Sealed(input))
            case .observerAdded(let observer): .observerAdded(observer)
            case .observerRemoved(let id): .observerRemoved(id)
            case .triggered(let trigger): .triggered(trigger)
            case .pendingWritesChanged(let pending): .writesChanged(TagWrites(pending: pending))
            case .writesChanged(let writes, let sent): .writesChanged(writes, sent: sent.map { [$0] } ?? [])
            case .shutDown: .shutDown
            }
        }
    }

    enum Action {
        case emit(CacheState<Kind.Shown>)
        case emitSignedOut
        case observeCache(Kind.Requirements, Kind.View, observation: Int)
        case stopObservingCache
        case joinFlight(Kind.Requirements, flight: UInt64)
        case leaveFlight(UInt64)
        case respond([RefreshCall], RefreshResult)
        case startRefreshTimer(RxTimeInterval)
        case stopRefreshTimer
        case greet(Observer)
        case complete([Observer])
        case log(TellerLogEvent)
        case quiet(Quiet)
        case logs([TellerLogEvent])
        case extra(Kind.ExtraAction)

        init(_ action: EngineAction) {
            switch action {
            case .emit(let decided): self = .emit(CacheState(decided))
            case .emitSignedOut: self = .emitSignedOut
            case .observeCache(let requirements, let view, let observation):
                self = .observeCache(
                    typedRequirements(requirements, as: Kind.Requirements.self),
                    view.open(as: Kind.View.self),
                    observation: observation
                )
            case .stopObservingCache: self = .stopObservingCache
            case .joinFlight(let requirements, let flight):
                self = .joinFlight(typedRequirements(requirements, as: Kind.Requirements.self), flight: flight)
            case .leaveFlight(let flight): self = .leaveFlight(flight)
            case .respond(let calls, let result): self = .respond(calls, result)
            case .startRefreshTimer(let interval): self = .startRefreshTimer(interval)
            case .stopRefreshTimer: self = .stopRefreshTimer
            case .greet(let observer): self = .greet(observer)
            case .complete(let observers): self = .complete(observers)
            case .log(let event): self = .log(event)
            case .quiet(let reason): self = .quiet(reason)
            case .logRepeated(let event, let count): self = .logs(Array(repeating: event, count: count))
            case .extra(let action): self = .extra(action.open(as: Kind.ExtraAction.self))
            }
        }
    }

    private(set) var machine: RepositoryMachine

    init(configuration: Configuration, extension ext: any MachineExtension = NoExtension()) {
        machine = RepositoryMachine(configuration: configuration, extension: ext)
    }

    subscript<Value>(dynamicMember keyPath: KeyPath<RepositoryMachine, Value>) -> Value {
        machine[keyPath: keyPath]
    }

    /// The kind's extension, typed.
    var ext: Kind.Extension {
        machine.ext as! Kind.Extension
    }

    /// The requirements the machine works for, typed.
    var requirements: Kind.Requirements? {
        guard let requirements = machine.requirements else { return nil }
        return typedRequirements(requirements, as: Kind.Requirements.self)
    }

    mutating func handle(_ input: Input, now: Date) -> [Action] {
        var actions: [Action] = []
        for action in machine.handle(input.sealed, now: now) { actions.append(Action(action)) }
        return actions
    }
}

extension StateObserver {
    /// An observer for a test that never delivers states to it: only its id matters.
    init(id: UInt64, observer: AnyObserver<CacheState<Never>?>) {
        self = Self.make(id: id, observer: observer)
    }

    private static func make<State>(id: UInt64, observer: AnyObserver<State>) -> StateObserver {
        StateObserver(id: id, observer: observer)
    }
}
