@_spi(TellerInternals) import TellerRx

/// The queue behind a repository's mailbox: inputs arrive from any thread and are processed one
/// at a time, in order, by the thread that found the queue idle. It lives inside the
/// repository's locked state: `enqueue` and `next` run under that lock, processing outside it.
struct InputQueue<Input> {
    // A FIFO queue, not an array: removing an array's first element is O(n).
    private var inputs = FIFOQueue<Input>()
    private var isDraining = false

    /// Queues `input`.
    ///
    /// - Returns: `true` when the caller must drain the queue (nobody else is doing it).
    mutating func enqueue(_ input: Input) -> Bool {
        inputs.enqueue(input)
        if isDraining { return false }
        isDraining = true
        return true
    }

    /// The next input to process, or `nil` once the queue is empty (the drainer stops).
    mutating func next() -> Input? {
        guard let input = inputs.dequeue() else {
            isDraining = false
            return nil
        }
        return input
    }
}
