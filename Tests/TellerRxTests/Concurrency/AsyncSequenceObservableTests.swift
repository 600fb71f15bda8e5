@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct AsyncSequenceObservableTests {
    // These tests await instead of using toBlocking(): blocking a Swift concurrency thread
    // while the observable's own Task needs one can starve the small cooperative pool.

    @Test func sendsTheElementsThenCompletes() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
        #expect(try await collect(stream.asObservable()) == [1, 2, 3])
    }

    @Test func fromIsTheSameAsAsObservable() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        continuation.yield(4)
        continuation.finish()
        #expect(try await collect(Observable.from(stream)) == [4])
    }

    @Test func forwardsTheSequenceError() async {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.finish(throwing: TestError(1))
        let received = Locked<[Int]>([])
        await #expect(throws: TestError(1)) {
            for try await value in stream.asObservable(detached: true).values { received.append(value) }
        }
        #expect(received.value == [1])
    }

    @Test func cancellationErrorFromTheSequenceCompletes() async throws {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Int.self)
        continuation.yield(1)
        continuation.finish(throwing: CancellationError())
        #expect(try await collect(stream.asObservable()) == [1])
    }

    @Test func disposingCancelsTheIteration() async {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let terminated = AsyncSignal()
        let cancelled = Locked(false)
        continuation.onTermination = { termination in
            if case .cancelled = termination { cancelled.withLock { $0 = true } }
            terminated.signal()
        }
        let received = Locked<[Int]>([])
        let subscription = stream.asObservable().subscribe(onNext: { received.append($0) })
        continuation.yield(1)
        subscription.dispose()
        await terminated.wait()
        #expect(cancelled.value)
    }

    private func collect(_ observable: Observable<Int>) async throws -> [Int] {
        var received: [Int] = []
        for try await value in observable.values { received.append(value) }
        return received
    }

    @Test func roundTripThroughValues() async throws {
        var received: [Int] = []
        for try await value in Observable.of(1, 2).values.asObservable().values {
            received.append(value)
        }
        #expect(received == [1, 2])
    }
}
