import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct CurrentThreadSchedulerTests {
    @Test func firstActionRunsAtOnceAndMarksTheTrampolineAsRunning() {
        #expect(CurrentThreadScheduler.isScheduleRequired)
        let ranInside = Locked<Bool?>(nil)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            ranInside.withLock { $0 = !CurrentThreadScheduler.isScheduleRequired }
            return Disposables.create()
        }
        #expect(ranInside.value == true)
        #expect(CurrentThreadScheduler.isScheduleRequired)
    }

    @Test func nestedActionsRunAfterTheCurrentOneInOrder() {
        let messages = Locked<[Int]>([])
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            messages.append(1)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                messages.append(3)
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    messages.append(6)
                    return Disposables.create()
                }
                messages.append(4)
                return Disposables.create()
            }
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                messages.append(5)
                return Disposables.create()
            }
            messages.append(2)
            return Disposables.create()
        }
        #expect(messages.value == [1, 2, 3, 4, 5, 6])
    }

    @Test func disposingAQueuedActionCancelsIt() {
        let messages = Locked<[Int]>([])
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            messages.append(1)
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                messages.append(3)
                return Disposables.create()
            }
            queued.dispose()
            messages.append(2)
            return Disposables.create()
        }
        #expect(messages.value == [1, 2])
    }

    @Test func disposingFromInsideANestedActionCancelsOnlyWhatIsStillQueued() {
        let messages = Locked<[Int]>([])
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            messages.append(1)
            _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                messages.append(3)
                let inner = CurrentThreadScheduler.instance.schedule(()) { _ in
                    messages.append(5)
                    return Disposables.create()
                }
                inner.dispose()
                messages.append(4)
                return Disposables.create()
            }
            messages.append(2)
            return Disposables.create()
        }
        #expect(messages.value == [1, 2, 3, 4])
    }

    @Test func disposingAQueuedActionAfterItRanDisposesWhatItReturned() {
        let innerDisposed = Locked(false)
        let handle = Locked<(any Disposable)?>(nil)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            let queued = CurrentThreadScheduler.instance.schedule(()) { _ in
                Disposables.create { innerDisposed.withLock { $0 = true } }
            }
            handle.withLock { $0 = queued }
            return Disposables.create()
        }
        #expect(!innerDisposed.value)
        handle.value?.dispose()
        #expect(innerDisposed.value)
    }

    @Test func eachThreadHasItsOwnTrampoline() {
        let otherThreadRanAtOnce = Locked<Bool?>(nil)
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            // While this thread's trampoline runs, another thread schedules on its own.
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let ran = Locked(false)
                _ = CurrentThreadScheduler.instance.schedule(()) { _ in
                    ran.withLock { $0 = true }
                    return Disposables.create()
                }
                otherThreadRanAtOnce.withLock { $0 = ran.value }
                done.signal()
            }
            _ = done.waitOrTimeOut()
            return Disposables.create()
        }
        #expect(otherThreadRanAtOnce.value == true)
    }

    @Test func trampolineTurnsDeepRecursionIntoIteration() {
        let count = Locked(0)
        @Sendable func step(_ remaining: Int) -> any Disposable {
            count.increment()
            if remaining > 0 {
                _ = CurrentThreadScheduler.instance.schedule(remaining - 1, action: step)
            }
            return Disposables.create()
        }
        // Deep enough to overflow the stack if each step nested inside the previous one.
        _ = CurrentThreadScheduler.instance.schedule(100_000, action: step)
        #expect(count.value == 100_001)
    }
}
