/// A first-in first-out queue on one array with a moving head: amortised O(1) `enqueue` and
/// `dequeue`, no allocation once it has grown to its working size. Not thread-safe; owners
/// keep it under their lock. `package` because Teller's repository mailbox uses it too.
package struct FIFOQueue<Element> {
    private var storage: [Element?] = []
    private var head = 0

    package init() {}

    package var isEmpty: Bool {
        head == storage.count
    }

    package var count: Int {
        storage.count - head
    }

    package mutating func enqueue(_ element: Element) {
        storage.append(element)
    }

    package mutating func dequeue() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        storage[head] = nil
        head += 1
        if head == storage.count {
            // Empty: start again at the front, keeping the capacity.
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32 && head * 2 >= storage.count {
            // Mostly dead slots at the front: compact so memory stays proportional to `count`.
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    package mutating func removeAll() {
        storage.removeAll()
        head = 0
    }
}
