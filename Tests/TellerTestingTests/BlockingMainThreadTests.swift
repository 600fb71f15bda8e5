import Dispatch
import Foundation
import TellerRx
import TellerTestSupport
import TellerTesting
import XCTest

/// XCTest on purpose: RxBlocking users block from XCTest methods, which run on the main thread
/// (Swift Testing on Linux runs no test on the main thread, not even `@MainActor` ones). These
/// check that blocking there keeps main-queue work running instead of deadlocking.
final class BlockingMainThreadTests: XCTestCase {
    func testFirstFromTheMainThreadLetsMainQueueDeliveryRun() throws {
        XCTAssertTrue(Thread.isMainThread)
        let mainQueueSource = Observable<Int>.create { observer in
            DispatchQueue.main.async {
                XCTAssertTrue(Thread.isMainThread)
                observer.onNext(1)
                observer.onCompleted()
            }
            return Disposables.create()
        }
        XCTAssertEqual(try mainQueueSource.toBlocking(timeout: 5).first(), 1)
    }

    func testMainSchedulerWorkRunsWhileBlockingOnTheMainThread() throws {
        let source = Observable.of(1, 2, 3, scheduler: MainScheduler.asyncInstance)
        XCTAssertEqual(try source.toBlocking(timeout: 5).toArray(), [1, 2, 3])
    }

    func testBackgroundThenMainQueueHopIsDelivered() throws {
        let source = Observable<Int>.create { observer in
            DispatchQueue.global().async {
                DispatchQueue.main.async {
                    observer.onNext(2)
                    observer.onCompleted()
                }
            }
            return Disposables.create()
        }
        XCTAssertEqual(try source.toBlocking().single(), 2)
    }

    func testTimeoutOnTheMainThreadThrows() {
        XCTAssertThrowsError(try Observable<Int>.never().toBlocking(timeout: 0.05).first()) { error in
            XCTAssertEqual(error as? RxError, .timeout)
        }
    }
}
