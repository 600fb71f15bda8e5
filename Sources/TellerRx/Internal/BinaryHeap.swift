/// A binary min-heap in one array: O(log n) `insert` and `removeFirst`, O(1) `first`. The
/// order is the caller's, passed to each call, so an element type needs no `Comparable`
/// conformance (a virtual time scheduler orders by its converter). Not thread-safe; owners keep
/// it under their lock. Not stable by itself: a caller that needs first-in first-out order for
/// equal keys orders by a sequence number as well.
struct BinaryHeap<Element> {
    private var storage: [Element] = []

    /// The element that `removeFirst` would return, left in the heap.
    var first: Element? {
        storage.first
    }

    /// How many elements the heap holds.
    var count: Int {
        storage.count
    }

    /// Adds `element`.
    ///
    /// - Parameter isBefore: The heap's order: whether the first argument comes before the second.
    mutating func insert(_ element: Element, by isBefore: (Element, Element) -> Bool) {
        storage.append(element)
        var child = storage.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBefore(storage[child], storage[parent]) else { break }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the first element, or returns `nil` when the heap is empty.
    ///
    /// - Parameter isBefore: The order `insert` was given.
    mutating func removeFirst(by isBefore: (Element, Element) -> Bool) -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let first = storage.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < storage.count else { break }
            let right = left + 1
            let child = right < storage.count && isBefore(storage[right], storage[left]) ? right : left
            guard isBefore(storage[child], storage[parent]) else { break }
            storage.swapAt(child, parent)
            parent = child
        }
        return first
    }
}
