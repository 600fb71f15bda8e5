import Dispatch

/// The floor of one whole refresh (`teller-refresh-dedup-1`): the two thread wake-ups it cannot
/// do without, and nothing else. The calling thread hands one block to a concurrent background
/// queue (a fetch starts on the background scheduler) and waits until that block signals it (the
/// caller is woken by the refresh's answer). On an idle virtual machine these wake-ups are most
/// of the time a refresh takes; the ratio says what Teller adds to them. The queue is made per
/// run, as the workload's Teller makes its background queue.
final class RefreshRoundTripFloor: Benchmark {
    let name: String
    let operations = 1
    let expectedResult = 1

    init(name: String) {
        self.name = name
    }

    func run() -> Int {
        let background = DispatchQueue(label: "floor.background", qos: .userInitiated, attributes: .concurrent)
        let answered = DispatchSemaphore(value: 0)
        background.async { answered.signal() }
        answered.wait()
        return expectedResult
    }
}
