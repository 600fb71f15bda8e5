import Dispatch
@_spi(TellerInternals) import TellerRx
import Testing

@Suite struct RefCountDisposableTests {
    @Test func disposesAtOnceWhenNothingIsRetained() {
        let count = Locked(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        #expect(!refCount.isDisposed)
        refCount.dispose()
        #expect(refCount.isDisposed)
        #expect(count.value == 1)
        refCount.dispose()
        #expect(count.value == 1)
    }

    @Test func waitsForEveryRetainedDependent() {
        let count = Locked(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        let first = refCount.retain()
        let second = refCount.retain()
        refCount.dispose()
        #expect(count.value == 0)
        #expect(!refCount.isDisposed)
        first.dispose()
        first.dispose()  // counts once
        #expect(count.value == 0)
        second.dispose()
        #expect(count.value == 1)
        #expect(refCount.isDisposed)
    }

    @Test func dependentsDisposedBeforeThePrimaryDoNotDisposeTheResource() {
        let count = Locked(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        refCount.retain().dispose()
        refCount.retain().dispose()
        #expect(count.value == 0)
        refCount.dispose()
        #expect(count.value == 1)
    }

    @Test func retainAfterTheResourceIsDisposedReturnsAnInertDisposable() {
        let count = Locked(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        refCount.dispose()
        let late = refCount.retain()
        late.dispose()
        #expect(count.value == 1)
        #expect(refCount.isDisposed)
    }

    @Test func concurrentRetainsAndReleasesDisposeTheResourceExactlyOnce() {
        let count = Locked(0)
        let refCount = RefCountDisposable(disposable: Disposables.create { count.increment() })
        let dependents = (0..<100).map { _ in refCount.retain() }
        DispatchQueue.concurrentPerform(iterations: 101) { index in
            if index == 100 {
                refCount.dispose()
            } else {
                dependents[index].dispose()
            }
        }
        #expect(count.value == 1)
        #expect(refCount.isDisposed)
    }
}
