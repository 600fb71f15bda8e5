import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

/// Each test runs its main-queue work from `DispatchQueue.main.async` and waits for it off the
/// main thread; on the main thread it is skipped rather than deadlock (PLATFORM-NOTES).
///
/// Serialized: `MainScheduler.instance` runs work at once only with nothing of its own queued
/// ahead, so one test's queued work would make another's "runs at once" expectation fail.
@Suite(.serialized) struct MainSchedulerTests {
    @Test func workScheduledFromABackgroundThreadRunsOnTheMainQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let onMain = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = MainScheduler.instance.schedule(()) { _ in
                onMain.withLock { $0 = MainQueue.isCurrent }
                done.signal()
                return Disposables.create()
            }
        }
        #expect(done.waitOrTimeOut())
        #expect(onMain.value == true)
    }

    @Test func instanceRunsAtOnceOnTheMainQueueWhenNothingIsQueuedAhead() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let ranBeforeReturn = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            let ran = Locked(false)
            _ = MainScheduler.instance.schedule(()) { _ in
                ran.withLock { $0 = true }
                return Disposables.create()
            }
            ranBeforeReturn.withLock { $0 = ran.value }
            done.signal()
        }
        #expect(done.waitOrTimeOut())
        #expect(ranBeforeReturn.value == true)
    }

    @Test func instanceDoesNotOvertakeWorkAlreadyQueuedForTheMainQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let log = Locked<[String]>([])
        let inBlock = DispatchSemaphore(value: 0)
        let queuedAhead = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            inBlock.signal()
            _ = queuedAhead.waitOrTimeOut()
            // Something is already queued through MainScheduler, so this must go behind it.
            _ = MainScheduler.instance.schedule(()) { _ in
                log.withLock { $0.append("second") }
                done.signal()
                return Disposables.create()
            }
            log.withLock { $0.append("block end") }
        }
        #expect(inBlock.waitOrTimeOut())
        _ = MainScheduler.instance.schedule(()) { _ in
            log.withLock { $0.append("first") }
            return Disposables.create()
        }
        queuedAhead.signal()
        #expect(done.waitOrTimeOut())
        #expect(log.value == ["block end", "first", "second"])
    }

    @Test func workScheduledFromInsideQueuedWorkRunsAfterWorkQueuedBeforeIt() throws {
        // RxSwift's testMainScheduler_basicScenario: 3 was queued, and it counts as queued work
        // until it returns, so 5, which it schedules, runs after it (after 4), not nested in it.
        guard try mayBlockWaitingForMainQueue() else { return }
        let messages = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            _ = MainScheduler.instance.schedule(()) { _ in
                messages.append(1)
                _ = MainScheduler.instance.schedule(()) { _ in
                    messages.append(3)
                    _ = MainScheduler.instance.schedule(()) { _ in
                        messages.append(5)
                        done.signal()
                        return Disposables.create()
                    }
                    messages.append(4)
                    return Disposables.create()
                }
                messages.append(2)
                return Disposables.create()
            }
        }
        #expect(done.waitOrTimeOut())
        #expect(messages.value == [1, 2, 3, 4, 5])
    }

    @Test func disposingWorkScheduledFromInsideQueuedWorkCancelsIt() throws {
        // RxSwift's testMainScheduler_disposing1: 5 is queued behind 3, so disposing it in 3
        // keeps it from running.
        guard try mayBlockWaitingForMainQueue() else { return }
        let messages = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            _ = MainScheduler.instance.schedule(()) { _ in
                messages.append(1)
                _ = MainScheduler.instance.schedule(()) { _ in
                    messages.append(3)
                    MainScheduler.instance.schedule(()) { _ in
                        messages.append(5)
                        return Disposables.create()
                    }
                    .dispose()
                    messages.append(4)
                    DispatchQueue.main.async { done.signal() }
                    return Disposables.create()
                }
                messages.append(2)
                return Disposables.create()
            }
        }
        #expect(done.waitOrTimeOut())
        #expect(messages.value == [1, 2, 3, 4])
    }

    @Test func asyncInstanceAlwaysGoesThroughTheMainQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let ranBeforeReturn = Locked<Bool?>(nil)
        let ranOnMain = Locked(false)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            let ran = Locked(false)
            _ = MainScheduler.asyncInstance.schedule(()) { _ in
                ran.withLock { $0 = true }
                ranOnMain.withLock { $0 = MainQueue.isCurrent }
                done.signal()
                return Disposables.create()
            }
            ranBeforeReturn.withLock { $0 = ran.value }
        }
        #expect(done.waitOrTimeOut())
        #expect(ranBeforeReturn.value == false)
        #expect(ranOnMain.value)
    }

    @Test func disposingQueuedMainWorkCancelsIt() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let ran = Locked(false)
        let refs = WeakRefs()
        let inBlock = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            inBlock.signal()
            _ = release.waitOrTimeOut()
        }
        #expect(inBlock.waitOrTimeOut())
        do {
            let tracked = Tracked(1)
            refs.track(tracked)
            let work = MainScheduler.instance.schedule(tracked) { _ in
                ran.withLock { $0 = true }
                return Disposables.create()
            }
            work.dispose()
        }
        #expect(refs.aliveCount == 0)
        release.signal()
        let flushed = DispatchSemaphore(value: 0)
        DispatchQueue.main.async { flushed.signal() }
        #expect(flushed.waitOrTimeOut())
        #expect(!ran.value)
    }

    @Test func isMainThreadIsTrueOnTheMainQueueAndFalseOnAnotherQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let onMain = Locked<Bool?>(nil)
        let onOther = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.main.async {
            onMain.withLock { $0 = MainScheduler.isMainThread }
            DispatchQueue(label: "not-main").async {
                onOther.withLock { $0 = MainScheduler.isMainThread }
                done.signal()
            }
        }
        #expect(done.waitOrTimeOut())
        #expect(onMain.value == true)
        #expect(onOther.value == false)
    }

    @Test func scheduleRelativeRunsOnTheMainQueue() throws {
        guard try mayBlockWaitingForMainQueue() else { return }
        let onMain = Locked<Bool?>(nil)
        let done = DispatchSemaphore(value: 0)
        _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
            onMain.withLock { $0 = MainQueue.isCurrent }
            done.signal()
            return Disposables.create()
        }
        #expect(done.waitOrTimeOut())
        #expect(onMain.value == true)
    }
}
