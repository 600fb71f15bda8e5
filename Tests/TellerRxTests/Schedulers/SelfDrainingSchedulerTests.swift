import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

/// Which Dispatch schedulers run what they are given whatever the process does: only those on a
/// queue they made themselves. One on a queue the app passed in may be on the main queue, which
/// nothing drains in a process without a run loop.
@Suite struct SelfDrainingSchedulerTests {
    @Test func schedulersOnAQueueOfTheirOwnDrainThemselves() {
        #expect(SerialDispatchQueueScheduler(internalSerialQueueName: "own").drainsItself)
        #expect(SerialDispatchQueueScheduler(qos: .utility).drainsItself)
        #expect(ConcurrentDispatchQueueScheduler(qos: .background).drainsItself)
    }

    @Test func schedulersOnAQueueTheAppPassedInOrOnTheMainQueueMayNot() {
        #expect(!SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "given").drainsItself)
        #expect(!SerialDispatchQueueScheduler(queue: .main, internalSerialQueueName: "on main").drainsItself)
        #expect(!ConcurrentDispatchQueueScheduler(queue: .global()).drainsItself)
        #expect(!MainScheduler.instance.drainsItself)
        #expect(!(MainScheduler.asyncInstance as any SelfDrainingScheduler).drainsItself)
    }
}
