/// What arrives in a repository's mailbox. Inputs that need metadata read it when they are
/// processed, never when they are queued, so the machine never sees metadata older than the input.
///
/// It names none of the repository's own types: the mailbox is touched by every call, from every
/// thread, and code generic over a repository's types finds their layout at run time on each use.
/// The few mails that carry such types (requirements, a cache value, a kind's own input) travel
/// sealed in a ``Parcel`` that only their engine opens.
enum Mail {
    /// The refresh calls made one after the other (the mailbox's first call batch): the machine
    /// gets them as one input.
    case refreshCalls
    case refreshCallLeft(RefreshCall)
    /// `observe()` was subscribed.
    case observed
    case triggered(RefreshTrigger)
    case flightSaving(UInt64)
    case flightRetry(UInt64, pending: PendingRetry?)
    case flightLeft(UInt64)
    case flightFinished(UInt64, result: RefreshResult, saved: Parcel?)
    case metadataChanged(MetadataChange)
    case removeObserver(UInt64)
    /// The app's writes to `tag` in an outbox (`nil`: to any tag) changed, those waiting or their
    /// failures; `sent` left because the server took them. They are read when processed.
    case writesChanged(tag: String?, sent: [OutboxRecord])
    case shutDown
    /// New requirements: a sealed `Requirements?`.
    case setRequirements(Parcel)
    /// The cache observation emitted `cache` (a sealed `Cache`).
    case cacheEmitted(observation: Int, cache: Parcel, isEmpty: Bool)
    case cacheFailed(observation: Int, error: any Error)
    case cacheSilent(observation: Int)
    /// An input only this kind of repository has (sealed).
    case extra(Parcel)
    case addObserver(StateObserver)
}

/// A value of one of the app's types, sealed so that what carries it (the mailbox, the machine)
/// need not know its type, and is compiled once for every repository. Whoever seals a value
/// knows its type and is the one that opens it (the engine, a repository kind's extension).
class Parcel: @unchecked Sendable {}

/// A parcel's content.
final class Sealed<Content>: Parcel, @unchecked Sendable {
    // @unchecked: written once, in init, and read by the one engine that drains the mailbox.
    let content: Content

    init(_ content: Content) {
        self.content = content
    }
}

extension Parcel {
    /// The content of a parcel its engine sealed as `Content`.
    func open<Content>(as type: Content.Type) -> Content {
        unsafeDowncast(self, to: Sealed<Content>.self).content
    }
}

/// A repository's mailbox: inputs arrive from any thread and are processed one at a time, in
/// order, by the thread that found the mailbox idle. It lives behind the engine's mailbox lock:
/// posting and taking run under it, processing outside it.
struct Mailbox {
    private var mail = InputQueue<Mail>()
    /// The requirements of the last `.setRequirements` not processed yet (a sealed
    /// `Requirements?`), and how many such mails are in flight: while any is, the `requirements`
    /// getter answers with these, so setting then reading on one thread agrees; afterwards the
    /// machine's are the answer.
    private(set) var requested: Parcel?
    private var requirementChangesInFlight = 0
    private var nextObserverID: UInt64 = 0
    /// The calls of the `.refreshCalls` mail waiting in `mail`, a batch each, in order, so a call
    /// added to the open batch costs an append.
    private var callBatches: [[RefreshCall]] = []
    /// The last mail queued is `.refreshCalls`, with the last batch: calls join it.
    private var isBatchOpen = false

    /// Queues `mail`; `true` when the caller must drain.
    mutating func post(_ mail: Mail) -> Bool {
        isBatchOpen = false
        return self.mail.enqueue(mail)
    }

    /// Queues new requirements (`requirements` seals a `Requirements?`); `true` when the caller
    /// must drain, and the parcel of the change it replaces as the last one requested, for the
    /// caller to release after the lock (the app's requirements may go with it).
    /// ``requirementsProcessed()`` follows once the machine has them.
    mutating func post(requirements: Parcel) -> (mustDrain: Bool, replaced: Parcel?) {
        let replaced = requested
        requested = requirements
        requirementChangesInFlight += 1
        return (post(.setRequirements(requirements)), replaced)
    }

    /// The machine processed a `.setRequirements`. Returns the last change requested once none
    /// is left in flight, for the caller to release after the lock.
    mutating func requirementsProcessed() -> Parcel? {
        requirementChangesInFlight -= 1
        guard requirementChangesInFlight == 0 else { return nil }
        defer { requested = nil }
        return requested
    }

    /// Queues a refresh call, in the open batch if there is one; `true` when the caller must
    /// drain.
    mutating func post(_ call: RefreshCall) -> Bool {
        if isBatchOpen, !callBatches.isEmpty {
            callBatches[callBatches.count - 1].append(call)
            // The batch's mail is still queued: whoever queued it drains.
            return false
        }
        callBatches.append([call])
        let mustDrain = mail.enqueue(.refreshCalls)
        isBatchOpen = true
        return mustDrain
    }

    /// The next mail, with its calls if it is `.refreshCalls`; `nil` once the queue is empty.
    mutating func take() -> (mail: Mail, calls: [RefreshCall])? {
        guard let next = mail.next() else { return nil }
        guard case .refreshCalls = next, !callBatches.isEmpty else { return (next, []) }
        let calls = callBatches.removeFirst()
        if callBatches.isEmpty { isBatchOpen = false }
        return (next, calls)
    }

    /// An id for a new observer.
    mutating func makeObserverID() -> UInt64 {
        nextObserverID += 1
        return nextObserverID
    }
}
