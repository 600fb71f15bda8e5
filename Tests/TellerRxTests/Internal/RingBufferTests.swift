import Testing

@testable import TellerRx

/// The one ring buffer: what it keeps, in which order, and what it hands back on overflow.
@Suite struct RingBufferTests {
    @Test func keepsTheLatestElementsOldestFirstAcrossWrapArounds() {
        var buffer = RingBuffer<Int>(capacity: 3)
        for element in 1...2 { buffer.append(element) }
        #expect(buffer.elements == [1, 2])
        // Seven more: the write position wraps around the three slots twice.
        for element in 3...9 { buffer.append(element) }
        #expect(buffer.elements == [7, 8, 9])
        #expect(buffer.count == 3)
        var visited: [Int] = []
        buffer.forEach { visited.append($0) }
        #expect(visited == [7, 8, 9])
    }

    @Test func appendingToAFullBufferSwapsTheOldestOut() {
        var buffer = RingBuffer<String>(capacity: 2)
        var first = "a"
        buffer.append(swapping: &first)
        #expect(first == "a")  // not full: nothing came out
        buffer.append("b")
        var overflow = "c"
        buffer.append(swapping: &overflow)
        #expect(overflow == "a")
        overflow = "d"
        buffer.append(swapping: &overflow)
        #expect(overflow == "b")
        #expect(buffer.elements == ["c", "d"])
    }

    @Test func capacityZeroKeepsNothing() {
        var buffer = RingBuffer<Int>(capacity: 0)
        var element = 1
        buffer.append(swapping: &element)
        buffer.append(2)
        #expect(buffer.isEmpty)
        #expect(buffer.elements == [])
        #expect(element == 1)
    }

    @Test func unboundedCapacityKeepsEverything() {
        var buffer = RingBuffer<Int>(capacity: .max)
        for element in 0..<1_000 { buffer.append(element) }
        #expect(buffer.elements == Array(0..<1_000))
    }

    @Test func aCopyIsASnapshot() {
        var buffer = RingBuffer<Int>(capacity: 2)
        buffer.append(1)
        buffer.append(2)
        let snapshot = buffer
        buffer.append(3)
        #expect(snapshot.elements == [1, 2])
        #expect(buffer.elements == [2, 3])
    }

    @Test func removeAllStartsAgainEmpty() {
        var buffer = RingBuffer<Int>(capacity: 2)
        for element in 1...5 { buffer.append(element) }
        buffer.removeAll()
        #expect(buffer.isEmpty)
        buffer.append(6)
        #expect(buffer.elements == [6])
    }
}
