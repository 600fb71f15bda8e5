@_spi(TellerInternals) import TellerRx
import Testing

/// `asObservable(priority:)`, RxSwift's spelling: the sequence is iterated in a task of that
/// priority, and otherwise behaves as `asObservable()`.
@Suite struct AsyncSequencePriorityTests {
    /// Records the priority of the task that iterates it, then sends `count` numbers.
    private struct PriorityRecording: AsyncSequence, Sendable {
        typealias Element = Int
        let count: Int
        let priorities: Locked<[TaskPriority]>

        struct AsyncIterator: AsyncIteratorProtocol {
            var next = 0
            let count: Int
            let priorities: Locked<[TaskPriority]>

            mutating func next() async -> Int? {
                priorities.withLock { $0.append(Task.currentPriority) }
                guard next < count else { return nil }
                next += 1
                return next
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(count: count, priorities: priorities)
        }
    }

    @Test(arguments: [TaskPriority.low, .medium, .high])
    func theSequenceIsIteratedInATaskOfTheGivenPriority(priority: TaskPriority) async throws {
        let priorities = Locked<[TaskPriority]>([])
        var received: [Int] = []
        let observable = PriorityRecording(count: 3, priorities: priorities).asObservable(priority: priority)
        for try await value in observable.values { received.append(value) }
        #expect(received == [1, 2, 3])
        // One reading per `next()`, the last one the end of the sequence.
        #expect(priorities.value.count == 4)
        // Never lower than asked for (an awaiting task of higher priority may escalate it).
        #expect(priorities.value.allSatisfy { $0 >= priority })
    }
}
