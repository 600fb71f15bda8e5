/// The floor for the subject workloads: a list of handler closures, called in order for each
/// element. No locks, no re-entrancy queue, no event enum, no terminal state; unsubscribing
/// removes the handler by the token `subscribe` returned.
///
/// `subscribe`, `unsubscribe` and `send` are `@inline(never)` so the loop calls a real method
/// per element, as with `PublishSubject.onNext`, instead of being folded into the benchmark.
final class ClosureSubject {
    private var handlers: [(token: Int, handler: (Int) -> Void)] = []
    private var nextToken = 0

    @inline(never)
    func subscribe(_ handler: @escaping (Int) -> Void) -> Int {
        nextToken += 1
        handlers.append((nextToken, handler))
        return nextToken
    }

    @inline(never)
    func unsubscribe(_ token: Int) {
        if let index = handlers.firstIndex(where: { $0.token == token }) {
            handlers.remove(at: index)
        }
    }

    @inline(never)
    func send(_ element: Int) {
        for entry in handlers {
            entry.handler(element)
        }
    }
}
