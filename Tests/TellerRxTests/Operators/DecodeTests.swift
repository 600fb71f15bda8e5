import Foundation
import TellerRx
import TellerTesting
import Testing

private struct User: Codable, Equatable, Sendable {
    let name: String
}

private func json(_ text: String) -> Data {
    Data(text.utf8)
}

@Suite struct DecodeTests {
    @Test func neverSourceSendsNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Data>>]([.next(150, json("{}"))]))
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events == [])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func emptySourceCompletes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Data>>]([.completed(250)]))
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events == [.completed(250)])
    }

    @Test func decodesEachElementWithTheDecoder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, json(#"{"name":"Ada"}"#)), .next(220, json(#"{"name":"Alan"}"#)), .completed(300),
        ])
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events == [.next(210, User(name: "Ada")), .next(220, User(name: "Alan")), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func forwardsTheSourceError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([Recorded<Event<Data>>]([.error(220, TestError(1))]))
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events == [.error(220, TestError(1))])
    }

    @Test func undecodableDataFailsAndDisposesTheSource() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, json(#"{"name":"Ada"}"#)), .next(220, json(#"{"nom":"x"}"#)), .next(230, json("{}")),
        ])
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, User(name: "Ada")))
        let failure = try #require(res.events.last)
        #expect(failure.time == 220)
        #expect(failure.value.error is DecodingError)
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func disposingEarlyStopsDecoding() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, json(#"{"name":"Ada"}"#)), .next(240, json("{}"))])
        let res = scheduler.start(disposed: 230) { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events == [.next(210, User(name: "Ada"))])
        #expect(xs.subscriptions == [Subscription(200, 230)])
    }

    @Test func propertyListDecoderAndCustomDecodersWork() throws {
        let plist = try PropertyListEncoder().encode(User(name: "Grace"))
        #expect(
            synchronousEvents(Observable.just(plist).decode(type: User.self, decoder: PropertyListDecoder()))
                == [.next(User(name: "Grace")), .completed]
        )
        struct FixedDecoder: DataDecoder, Sendable {
            func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item {
                try JSONDecoder().decode(type, from: Data(#"{"name":"fixed"}"#.utf8))
            }
        }
        #expect(
            synchronousEvents(Observable.just(Data()).decode(type: User.self, decoder: FixedDecoder()))
                == [.next(User(name: "fixed")), .completed]
        )
    }
}
