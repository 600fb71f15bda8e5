import Testing

@testable import TellerRx

@Suite struct BinaryHeapTests {
    @Test func removesElementsInTheOrderItWasGivenWhateverTheInsertionOrder() {
        var heap = BinaryHeap<Int>()
        // A fixed permutation of 0..<1_000 with long runs in both directions.
        let values = (0..<1_000).map { ($0 * 7_919) % 1_000 }
        for value in values { heap.insert(value, by: <) }
        #expect(heap.count == 1_000)
        var removed: [Int] = []
        while let value = heap.removeFirst(by: <) { removed.append(value) }
        #expect(removed == Array(0..<1_000))
        #expect(heap.first == nil)
    }

    @Test func interleavedInsertsAndRemovalsKeepTheOrder() {
        var heap = BinaryHeap<Int>()
        var removed: [Int] = []
        for value in [5, 3, 8] { heap.insert(value, by: <) }
        removed.append(heap.removeFirst(by: <)!)
        for value in [1, 9, 4] { heap.insert(value, by: <) }
        while let value = heap.removeFirst(by: <) { removed.append(value) }
        #expect(removed == [3, 1, 4, 5, 8, 9])
    }
}
