/// A ``Producer`` that runs its subscription inside the current thread's trampoline, the way
/// every RxSwift producer does.
///
/// Why: an operator that can end its subscription before its source ends (`take`, `first`, a
/// throwing closure, …) stops a synchronous source by disposing it, and that disposal only
/// reaches the source once every `run` in the chain has returned and its ``SinkDisposer`` is
/// set. Entering the ``CurrentThreadScheduler`` trampoline first defers the work that sources
/// schedule on it (`of`, `from`, `range`, `repeatElement`) until the chain is wired, so
/// `Observable.repeatElement(1).take(3)` stops after three elements instead of looping forever
/// into a disposed sink, and `from(array).take(1)` stops after one.
///
/// Cost, per subscribe only: one thread-local read when a trampoline already runs on this
/// thread (any nested subscribe); otherwise also one trampoline entry. Nothing per event.
/// Operators that never end before their source (`materialize`, `takeLast`, …) use plain
/// ``Producer``. If ``Producer`` itself adopts this (as RxSwift's does), this class can go.
class TrampolinedProducer<Element: Sendable>: Producer<Element>, @unchecked Sendable {
    // @unchecked: producers keep only immutable configuration.

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        guard CurrentThreadScheduler.isScheduleRequired else {
            return super.subscribe(observer)
        }
        // The trampoline is not running, so `schedule` runs the action at once, on this thread,
        // and returns its disposable; work the chain schedules on it runs right after.
        return CurrentThreadScheduler.instance.schedule(UncheckedSendable((self, observer))) { pair in
            pair.value.0.subscribeNow(pair.value.1)
        }
    }

    private func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> any Disposable
    where Observer.Element == Element {
        super.subscribe(observer)
    }
}
