@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct DisposeBagInsertTests {
    @Test func variadicInsertDisposesEveryMemberInOrderWhenTheBagIsReleased() {
        let log = Locked<[Int]>([])
        var bag: DisposeBag? = DisposeBag()
        bag?.insert(
            Disposables.create { log.append(1) },
            Disposables.create { log.append(2) },
            Disposables.create { log.append(3) }
        )
        #expect(log.value == [])
        bag = nil
        #expect(log.value == [1, 2, 3])
    }

    @Test func arrayInsertDisposesEveryMemberWhenTheBagIsReleased() {
        let log = Locked<[Int]>([])
        var bag: DisposeBag? = DisposeBag()
        bag?.insert([Disposables.create { log.append(1) }, Disposables.create { log.append(2) }])
        bag = nil
        #expect(log.value == [1, 2])
    }

    @Test func initDisposingVariadicAndArrayHoldTheirMembers() {
        let log = Locked<[Int]>([])
        var variadic: DisposeBag? = DisposeBag(
            disposing: Disposables.create { log.append(1) },
            Disposables.create { log.append(2) }
        )
        var array: DisposeBag? = DisposeBag(disposing: [Disposables.create { log.append(3) }])
        #expect(log.value == [])
        variadic = nil
        array = nil
        #expect(log.value == [1, 2, 3])
        _ = (variadic, array)
    }

    @Test func builderInitHoldsEverySubscriptionOfTheBlock() {
        let names = PublishSubject<String>()
        let ages = PublishSubject<Int>()
        let received = Locked<[String]>([])
        var bag: DisposeBag? = DisposeBag {
            names.subscribe(onNext: { name in received.withLock { $0.append(name) } })
            ages.subscribe(onNext: { age in received.withLock { $0.append("\(age)") } })
        }
        names.onNext("a")
        ages.onNext(1)
        bag = nil
        names.onNext("b")
        ages.onNext(2)
        #expect(received.value == ["a", "1"])
        #expect(!names.hasObservers)
        #expect(!ages.hasObservers)
        _ = bag
    }

    @Test func builderAcceptsConditionsAndLoops() {
        let log = Locked<[Int]>([])
        let includeOptional = true
        var bag: DisposeBag? = DisposeBag()
        bag?.insert {
            Disposables.create { log.append(1) }
            if includeOptional {
                Disposables.create { log.append(2) }
            }
            if !includeOptional {
                Disposables.create { log.append(-1) }
            } else {
                Disposables.create { log.append(3) }
            }
            for value in 4...5 {
                Disposables.create { log.append(value) }
            }
        }
        bag = nil
        #expect(log.value == [1, 2, 3, 4, 5])
    }

    @Test func emptyBuilderBlockMakesAnEmptyBag() {
        let log = Locked<[Int]>([])
        var bag: DisposeBag? = DisposeBag {}
        bag?.insert(Disposables.create { log.append(1) })
        #expect(log.value == [])
        bag = nil
        #expect(log.value == [1])
    }
}
