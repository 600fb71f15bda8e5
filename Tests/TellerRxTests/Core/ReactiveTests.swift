import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

private final class Thermostat: ReactiveCompatible, Sendable {
    private let stored = LockedState(0)

    var target: Int {
        get { stored.value }
        set { stored.withLock { $0 = newValue } }
    }
}

extension Reactive where Base: Thermostat {
    /// A custom reactive extension, as users write them.
    fileprivate func target(on scheduler: any ImmediateSchedulerType) -> Binder<Int> {
        Binder(base, scheduler: scheduler) { thermostat, value in thermostat.target = value }
    }

    fileprivate var current: Observable<Int> {
        Observable.just(base.target)
    }
}

private struct Point: ReactiveCompatible {
    var x = 1
}

@Suite struct ReactiveTests {
    @Test func customExtensionsAreReachedThroughRx() {
        let thermostat = Thermostat()
        _ = Observable.of(18, 21).bind(to: thermostat.rx.target(on: CurrentThreadScheduler.instance))
        #expect(thermostat.target == 21)
        #expect(synchronousEvents(thermostat.rx.current) == [.next(21), .completed])
        #expect(thermostat.rx.base === thermostat)
    }

    @Test func writablePropertiesAreBindersThroughDynamicMemberLookup() async {
        let thermostat = Thermostat()
        let binder: Binder<Int> = thermostat.rx.target
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = Observable.just(23).bind(to: binder)
                // The main queue is serial: this runs after the binding the line above queued.
                DispatchQueue.main.async { continuation.resume() }
            }
        }
        #expect(thermostat.target == 23)
    }

    @Test func valueTypesAndTheTypeItselfHaveRx() {
        var point = Point()
        #expect(point.rx.base.x == 1)
        point.rx = Reactive(Point(x: 5))  // settable, as in RxSwift, and ignored
        #expect(point.x == 1)
        #expect(Point.rx == Reactive<Point>.self)
    }

    @Test func nsObjectIsReactiveCompatible() {
        let object = NSObject()
        #expect(object.rx.base === object)
    }
}
