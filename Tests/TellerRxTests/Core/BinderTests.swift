import Dispatch
import Foundation
@_spi(TellerInternals) import TellerRx
import TellerTesting
import Testing

/// A bindable target: its state is behind a lock, so it is `Sendable`.
private final class Label: Sendable {
    let texts = Locked<[String]>([])
    var text: String {
        get { texts.value.last ?? "" }
        set { texts.withLock { $0.append(newValue) } }
    }
}

@Suite struct BinderTests {
    @Test func appliesEachElementToTheTargetOnItsScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let label = Label()
        let appliedAt = Locked<[Int]>([])
        let binder = Binder(label, scheduler: scheduler) { label, text in
            appliedAt.withLock { $0.append(scheduler.clock) }
            label.text = text
        }
        let xs = scheduler.createHotObservable([.next(210, "a"), .next(220, "b"), .completed(230)])
        scheduler.scheduleAt(200) { _ = xs.bind(to: binder) }
        scheduler.start()
        #expect(label.texts.value == ["a", "b"])
        // One tick later: the work went through the scheduler.
        #expect(appliedAt.value == [211, 221])
    }

    @Test func holdsTheTargetWeaklyAndSkipsElementsOnceItIsGone() {
        let applied = Locked(0)
        var label: Label? = Label()
        weak let weakLabel = label
        let binder = Binder(label!, scheduler: CurrentThreadScheduler.instance) { (_, _: String) in applied.increment()
        }
        binder.onNext("a")
        label = nil
        #expect(weakLabel == nil)
        binder.onNext("b")
        #expect(applied.value == 1)
    }

    @Test func errorsAndCompletionAreNotApplied() {
        expectMisuse("Binding error: TestError(id: 1)") {
            let label = Label()
            let binder = Binder(label, scheduler: CurrentThreadScheduler.instance) { label, text in label.text = text }
            binder.onCompleted()
            binder.onError(TestError(1))
            binder.onNext("after")
            #expect(label.texts.value == ["after"])
        }
    }

    @Test func asObserverForwardsToTheBinder() {
        let label = Label()
        let observer = Binder(label, scheduler: CurrentThreadScheduler.instance) { label, text in label.text = text }
            .asObserver()
        _ = Observable.of("x", "y").subscribe(observer)
        #expect(label.texts.value == ["x", "y"])
    }

    @Test func defaultSchedulerIsTheMainThread() async {
        let label = Label()
        let onMain = Locked<[Bool]>([])
        let binder = Binder(label) { label, text in
            onMain.withLock { $0.append(MainScheduler.isMainThread) }
            label.text = text
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                _ = Observable.just("main").bind(to: binder)
                // The main queue is serial: this runs after the binding the line above queued.
                DispatchQueue.main.async { continuation.resume() }
            }
        }
        #expect(label.texts.value == ["main"])
        #expect(onMain.value == [true])
    }
}
