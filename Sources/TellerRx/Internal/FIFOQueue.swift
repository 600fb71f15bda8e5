/// The package's one first-in first-out queue: one array with a moving head, amortised O(1)
/// `enqueue` and `dequeue`, no allocation once it has grown to its working size. Not
/// thread-safe; owners keep it under their lock.
///
/// **Compaction, the one rule.** A dequeued slot is cleared at once, so the queue never keeps
/// an element (or runs its deinit, which may be user code) after handing it out. When the
/// queue runs empty it starts again at the front, keeping its array for the next burst unless
/// that grew past ``retainedCapacity`` slots. While it never runs empty (a producer that keeps
/// ahead of the consumer), the cleared front is dropped once it is at least
/// ``compactionThreshold`` slots and half the array: memory stays within twice the live count
/// (plus the threshold), and each element is moved at most once per compaction it survives,
/// which keeps both operations amortised O(1).
///
/// Teller's repository mailbox and outbox use it too: SPI with `package` members and inlinable,
/// as ``LockedState`` (see there why), so that their queues are specialized for their element.
@_spi(TellerInternals) public struct FIFOQueue<Element> {
    /// Cleared front slots that may wait for compaction.
    @inlinable static var compactionThreshold: Int { 32 }
    /// The largest array an emptied queue keeps.
    @inlinable static var retainedCapacity: Int { 64 }

    @usableFromInline var storage: [Element?] = []
    @usableFromInline var head = 0

    @inlinable package init() {}

    /// Whether no element is queued.
    @inlinable
    package var isEmpty: Bool {
        head == storage.count
    }

    /// How many elements are queued.
    @inlinable
    package var count: Int {
        storage.count - head
    }

    /// The element `dequeue()` would return next, left in the queue.
    @inlinable
    package var first: Element? {
        head < storage.count ? storage[head] : nil
    }

    /// Adds `element` at the back.
    @inlinable
    package mutating func enqueue(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns the front element, or returns `nil` when the queue is empty.
    @inlinable
    package mutating func dequeue() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head].take()
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.capacity <= Self.retainedCapacity)
            head = 0
        } else if head >= Self.compactionThreshold && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Removes every element and gives the array back.
    @inlinable
    package mutating func removeAll() {
        storage = []
        head = 0
    }

    /// The array's capacity, for tests of the compaction rule.
    var capacity: Int {
        storage.capacity
    }
}
