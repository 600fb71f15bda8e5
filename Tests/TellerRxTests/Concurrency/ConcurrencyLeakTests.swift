import TellerRx
import Testing

@Suite(.serialized) struct ConcurrencyLeakTests {
    @Test func finishedIterationFreesEverything() async throws {
        let leaks = try await leaksOnEveryTry {
            for try await _ in Observable.of(1, 2, 3).values {}
        }
        #expect(!leaks)
    }

    @Test func abandonedIterationFreesEverything() async throws {
        let subject = PublishSubject<Int>()
        let leaks = await leaksOnEveryTry {
            var iterator = subject.values.makeAsyncIterator()
            subject.onNext(1)
            _ = try? await iterator.next()
        }
        #expect(!leaks)
        #expect(!subject.hasObservers)
    }

    @Test func awaitedValuesFreeEverything() async throws {
        #expect(try await !leaksOnEveryTry { _ = try await Single.just(1).value })
        #expect(await !leaksOnEveryTry { _ = try? await Maybe<Int>.error(TestError()).value })
        #expect(try await !leaksOnEveryTry { try await Completable.empty().value })
    }

    @Test func cancelledValueFreesEverything() async {
        let leaks = await leaksOnEveryTry {
            let subscribed = AsyncSignal()
            let source = Single<Int>.create { _ in
                subscribed.signal()
                return Disposables.create()
            }
            let waiter = Task { try await source.value }
            await subscribed.wait()
            waiter.cancel()
            _ = try? await waiter.value
        }
        #expect(!leaks)
    }
}
