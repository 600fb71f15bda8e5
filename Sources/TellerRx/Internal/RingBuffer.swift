/// The package's one ring buffer: the latest `capacity` elements, oldest first. It grows only
/// as elements arrive, so a large capacity (or `Int.max`, for "keep everything") costs nothing
/// up front; once full, appending overwrites the oldest element in place, with no allocation.
/// Copying it is cheap (copy-on-write), which is how a subscriber takes a snapshot. Not
/// thread-safe; owners keep it under their lock.
struct RingBuffer<Element> {
    /// How many elements it keeps; 0 keeps none.
    let capacity: Int
    private var storage: [Element] = []
    /// Where the oldest element is, once `storage` is full.
    private var start = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// Whether it holds no element.
    var isEmpty: Bool {
        storage.isEmpty
    }

    /// How many elements it holds.
    var count: Int {
        storage.count
    }

    /// Adds `element` as the newest. If the buffer is full, the oldest element is swapped out
    /// into `element`, so that a caller holding a lock can free it after unlocking (its deinit
    /// may be user code). With capacity 0, `element` is left as it is.
    mutating func append(swapping element: inout Element) {
        if storage.count < capacity {
            storage.append(element)
        } else if capacity > 0 {
            swap(&storage[start], &element)
            start += 1
            if start == capacity { start = 0 }
        }
    }

    /// Adds `element` as the newest, dropping the oldest if the buffer is full.
    mutating func append(_ element: Element) {
        var element = element
        append(swapping: &element)
    }

    /// Calls `body` with each element, oldest first.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        for index in start..<storage.count { try body(storage[index]) }
        for index in 0..<start { try body(storage[index]) }
    }

    /// The elements, oldest first. No allocation while the buffer has not wrapped around.
    var elements: [Element] {
        start == 0 ? storage : Array(storage[start...] + storage[..<start])
    }

    /// Removes every element and gives the storage back.
    mutating func removeAll() {
        storage = []
        start = 0
    }
}
