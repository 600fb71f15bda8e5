import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct SerialDispatchQueueSchedulerTests {
    private func flush(_ scheduler: some ImmediateSchedulerType) -> Bool {
        let flushed = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            flushed.signal()
            return Disposables.create()
        }
        return flushed.waitOrTimeOut()
    }

    @Test func scheduleRunsActionsOneAtATimeInOrderOnTheQueue() {
        let marker = QueueMarker(label: "serial.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "serial")
        let order = Locked<[Int]>([])
        let offQueue = Locked(0)
        for index in 0..<1_000 {
            _ = scheduler.schedule(index) { index in
                if !marker.isCurrent { offQueue.increment() }
                order.append(index)
                return Disposables.create()
            }
        }
        #expect(flush(scheduler))
        #expect(order.value == Array(0..<1_000))
        #expect(offQueue.value == 0)
    }

    @Test func scheduleRelativeRunsOnTheQueueNoEarlierThanTheDueTime() {
        let marker = QueueMarker(label: "serial.relative.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "serial.relative")
        let start = DispatchTime.now()
        let elapsed = Locked<UInt64>(0)
        let onQueue = Locked(false)
        let done = DispatchSemaphore(value: 0)
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
            elapsed.withLock { $0 = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds }
            onQueue.withLock { $0 = marker.isCurrent }
            done.signal()
            return Disposables.create()
        }
        #expect(done.waitOrTimeOut())
        #expect(elapsed.value >= 20_000_000)
        #expect(onQueue.value)
    }

    @Test func scheduleRelativeDueNowRunsOnTheQueueAfterWorkScheduledBeforeItAndNeverInline() {
        let marker = QueueMarker(label: "serial.now.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "serial.now")
        let order = Locked<[String]>([])
        let offQueue = Locked(0)
        let gate = DispatchSemaphore(value: 0)
        // The queue is held busy, so both must wait for their turn, in the order asked.
        _ = scheduler.schedule(()) { _ in
            gate.wait()
            return Disposables.create()
        }
        for (label, dueTime) in [("immediate", nil), ("zero", .seconds(0)), ("negative", .milliseconds(-5))]
            as [(String, RxTimeInterval?)]
        {
            let action: @Sendable (()) -> any Disposable = { _ in
                if !marker.isCurrent { offQueue.increment() }
                order.withLock { $0.append(label) }
                return Disposables.create()
            }
            if let dueTime {
                _ = scheduler.scheduleRelative((), dueTime: dueTime, action: action)
            } else {
                _ = scheduler.schedule((), action: action)
            }
        }
        let cancelled = scheduler.scheduleRelative((), dueTime: .seconds(0)) { _ in
            order.withLock { $0.append("cancelled") }
            return Disposables.create()
        }
        cancelled.dispose()
        #expect(order.value.isEmpty)
        gate.signal()
        #expect(flush(scheduler))
        #expect(order.value == ["immediate", "zero", "negative"])
        #expect(offQueue.value == 0)
    }

    @Test func disposingScheduledWorkBeforeItRunsCancelsItAndFreesItsAction() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial.cancel")
        let blocking = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in
            blocking.signal()
            _ = release.waitOrTimeOut()
            return Disposables.create()
        }
        #expect(blocking.waitOrTimeOut())
        let refs = WeakRefs()
        let ran = Locked(false)
        do {
            let tracked = Tracked(1)
            refs.track(tracked)
            let work = scheduler.schedule(tracked) { _ in
                ran.withLock { $0 = true }
                return Disposables.create()
            }
            work.dispose()
        }
        // Freed by `dispose()` itself, while the queue is still blocked.
        #expect(refs.aliveCount == 0)
        release.signal()
        #expect(flush(scheduler))
        #expect(!ran.value)
    }

    @Test func disposingARelativeTimerCancelsItAndFreesItsActionAtOnce() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial.timer.cancel")
        let refs = WeakRefs()
        let ran = Locked(0)
        do {
            let tracked = Tracked(1)
            let capturedByTheAction = Tracked(2)
            refs.track(tracked)
            refs.track(capturedByTheAction)
            let work = scheduler.scheduleRelative(tracked, dueTime: .milliseconds(30)) { [capturedByTheAction] _ in
                _ = capturedByTheAction
                ran.increment()
                return Disposables.create()
            }
            work.dispose()
        }
        // The state and the action itself are freed by `dispose()`, before Dispatch gets round
        // to the cancelled timer: with the action gone, nothing can ever run it.
        #expect(refs.aliveCount == 0)
        // And the timer's due time has passed without it: a fence due later, on the same queue.
        #expect(passFence(on: scheduler, after: .milliseconds(60)))
        #expect(ran.value == 0)
    }

    @Test func disposingWorkAfterItRanDisposesWhatItReturned() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial.inner")
        let innerDisposed = Locked(false)
        let work = scheduler.schedule(()) { _ in
            Disposables.create { innerDisposed.withLock { $0 = true } }
        }
        #expect(flush(scheduler))
        #expect(!innerDisposed.value)
        work.dispose()
        #expect(innerDisposed.value)
    }

    @Test func workDisposedWhileRunningDisposesWhatItReturnsAtOnce() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "serial.running")
        let innerDisposed = Locked(false)
        let handle = Locked<(any Disposable)?>(nil)
        let started = DispatchSemaphore(value: 0)
        let disposedWhileRunning = DispatchSemaphore(value: 0)
        let work = scheduler.schedule(()) { _ in
            started.signal()
            _ = disposedWhileRunning.waitOrTimeOut()
            return Disposables.create { innerDisposed.withLock { $0 = true } }
        }
        handle.withLock { $0 = work }
        #expect(started.waitOrTimeOut())
        work.dispose()
        disposedWhileRunning.signal()
        #expect(flush(scheduler))
        #expect(innerDisposed.value)
    }

    @Test func schedulePeriodicThreadsTheStateOnTheQueueAndStopsWhenDisposed() {
        let marker = QueueMarker(label: "serial.periodic.target")
        let scheduler = SerialDispatchQueueScheduler(queue: marker.queue, internalSerialQueueName: "serial.periodic")
        let states = Locked<[Int]>([])
        let offQueue = Locked(0)
        let fiveTicks = DispatchSemaphore(value: 0)
        let refs = WeakRefs()
        let tracked = Tracked(1)
        refs.track(tracked)
        let stopped = Locked(false)
        let ticksAfterStop = Locked(0)
        let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .milliseconds(2)) {
            [tracked] state in
            _ = tracked
            if stopped.value { ticksAfterStop.increment() }
            if !marker.isCurrent { offQueue.increment() }
            states.append(state)
            if state == 4 { fiveTicks.signal() }
            return state + 1
        }
        _ = consume tracked
        #expect(fiveTicks.waitOrTimeOut())
        let disposed = DispatchSemaphore(value: 0)
        marker.queue.async {
            periodic.dispose()
            stopped.withLock { $0 = true }
            disposed.signal()
        }
        #expect(disposed.waitOrTimeOut())
        // The action, and what it captured, went with `dispose()`: no later tick can run it.
        #expect(refs.aliveCount == 0)
        // And none ran in between: a fence twenty periods later, on the same queue.
        #expect(passFence(on: scheduler, after: .milliseconds(40)))
        #expect(ticksAfterStop.value == 0)
        #expect(states.value == Array(0..<states.value.count))
        #expect(states.value.count >= 5)
        #expect(offQueue.value == 0)
    }

    @Test func qosInitializerRunsWorkToo() {
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated)
        #expect(flush(scheduler))
    }

    @Test func concurrentSchedulerRunsActionsAtTheSameTime() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
        let firstStarted = DispatchSemaphore(value: 0)
        let secondStarted = DispatchSemaphore(value: 0)
        let bothOverlapped = Locked(0)
        let done = DispatchSemaphore(value: 0)
        // Each action waits for the other to start: this only finishes if they overlap. The wait
        // is long because the second action needs a free Dispatch worker, and on two cores the
        // tests running in parallel may hold them all for a while.
        let overlapTimeout = DispatchTimeInterval.seconds(120)
        _ = scheduler.schedule(()) { _ in
            firstStarted.signal()
            if secondStarted.wait(timeout: .now() + overlapTimeout) == .success { bothOverlapped.increment() }
            done.signal()
            return Disposables.create()
        }
        _ = scheduler.schedule(()) { _ in
            secondStarted.signal()
            if firstStarted.wait(timeout: .now() + overlapTimeout) == .success { bothOverlapped.increment() }
            done.signal()
            return Disposables.create()
        }
        #expect(done.wait(timeout: .now() + overlapTimeout) == .success)
        #expect(done.wait(timeout: .now() + overlapTimeout) == .success)
        #expect(bothOverlapped.value == 2)
    }
}
