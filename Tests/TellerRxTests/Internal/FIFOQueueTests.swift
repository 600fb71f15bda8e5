import Testing

@_spi(TellerInternals) @testable import TellerRx

/// The one FIFO queue: order, the compaction rule, and that it keeps nothing it handed out.
@Suite struct FIFOQueueTests {
    /// Bursts of enqueues and dequeues of varying sizes (some run the queue empty, some let it
    /// grow past the compaction threshold), checked step by step against an array.
    @Test func matchesAnArrayThroughBurstsOfEnqueuesAndDequeues() {
        var queue = FIFOQueue<Int>()
        var model: [Int] = []
        var next = 0
        for round in 0..<400 {
            for _ in 0..<(round * 37 % 101) {
                queue.enqueue(next)
                model.append(next)
                next += 1
            }
            for _ in 0..<(round * 53 % 97) {
                let expected = model.isEmpty ? nil : model.removeFirst()
                #expect(queue.dequeue() == expected)
            }
            #expect(queue.count == model.count)
            #expect(queue.isEmpty == model.isEmpty)
            #expect(queue.first == model.first)
        }
        while let element = queue.dequeue() {
            #expect(element == model.removeFirst())
        }
        #expect(model.isEmpty)
    }

    @Test func keepsOrderAcrossCompactionsWhenItNeverRunsEmpty() {
        var queue = FIFOQueue<Int>()
        var received: [Int] = []
        // Ten elements always queued: without compaction the array would grow to 10,010 slots.
        for element in 0..<10 { queue.enqueue(element) }
        for element in 10..<10_010 {
            queue.enqueue(element)
            received.append(queue.dequeue() ?? -1)
        }
        #expect(received == Array(0..<10_000))
        #expect(queue.count == 10)
        // Twice the live elements plus the threshold, with room for the array growth policy.
        #expect(queue.capacity <= 4 * (10 + FIFOQueue<Int>.compactionThreshold))
        #expect(queue.first == 10_000)
    }

    @Test func anEmptiedQueueKeepsASmallArrayAndGivesALargeOneBack() {
        var small = FIFOQueue<Int>()
        for element in 0..<10 { small.enqueue(element) }
        while small.dequeue() != nil {}
        #expect(small.isEmpty)
        #expect(small.capacity >= 10)

        var large = FIFOQueue<Int>()
        for element in 0..<(FIFOQueue<Int>.retainedCapacity * 4) { large.enqueue(element) }
        while large.dequeue() != nil {}
        #expect(large.isEmpty)
        #expect(large.capacity == 0)

        // Either way it starts again at the front.
        large.enqueue(7)
        #expect(large.first == 7)
        #expect(large.dequeue() == 7)
    }

    @Test func aDequeuedElementIsReleasedAtOnceWhileOthersStayQueued() {
        var queue = FIFOQueue<Box>()
        weak var first: Box?
        do {
            let box = Box(1)
            first = box
            queue.enqueue(box)
            queue.enqueue(Box(2))
        }
        _ = queue.dequeue()
        #expect(first == nil)
        #expect(queue.first?.value == 2)
    }

    @Test func removeAllEmptiesTheQueue() {
        var queue = FIFOQueue<Int>()
        for element in 0..<100 { queue.enqueue(element) }
        _ = queue.dequeue()
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.dequeue() == nil)
        queue.enqueue(1)
        #expect(queue.count == 1)
    }
}

private final class Box {
    let value: Int

    init(_ value: Int) {
        self.value = value
    }
}
