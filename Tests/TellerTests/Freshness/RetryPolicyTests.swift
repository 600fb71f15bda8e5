import Foundation
import Teller
import TellerRx
import Testing

/// `RetryPolicy`'s arithmetic and its errors for values that make no sense.
@Suite struct RetryPolicyTests {
    @Test func theStandardPolicyWaitsOneTwoAndFourSecondsAndIsCappedAtThirty() {
        let delays = (1...8).map { RetryPolicy.standard.baseDelay(afterFailedAttempts: $0) }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30, 30])
        #expect(RetryPolicy.standard.maxRetries == 3)
    }

    @Test func neverRetriesNothing() {
        #expect(RetryPolicy.never.maxRetries == 0)
        #expect(!RetryPolicy.never.isRetryable(URLError(.notConnectedToInternet)))
        #expect(RetryPolicy.never.description == "no retries")
    }

    @Test func isRetryableAsksThePolicysPredicate() throws {
        let policy = try RetryPolicy { error in (error as? URLError)?.code == .timedOut }
        #expect(policy.isRetryable(URLError(.timedOut)))
        #expect(!policy.isRetryable(URLError(.badURL)))
    }

    @Test(arguments: [
        (-1, 1.0, 30.0, 2.0, 0.0, "maxRetries is -1; it must be 0 or more"),
        (3, -1.0, 30.0, 2.0, 0.0, "initialDelay is"),
        (3, 10.0, 5.0, 2.0, 0.0, "is below initialDelay"),
        (3, 1.0, 30.0, 0.5, 0.0, "multiplier is 0.5; it must be 1 or more"),
        (3, 1.0, 30.0, 2.0, 1.5, "jitter is 1.5; it must be from 0 to 1"),
    ])
    func aPolicyThatMakesNoSenseIsRefusedWithAClearError(
        maxRetries: Int,
        initial: Double,
        cap: Double,
        multiplier: Double,
        jitter: Double,
        message: String
    ) {
        #expect {
            try RetryPolicy(
                maxRetries: maxRetries,
                initialDelay: .milliseconds(Int(initial * 1_000)),
                multiplier: multiplier,
                maxDelay: .milliseconds(Int(cap * 1_000)),
                jitter: jitter
            )
        } throws: { error in
            guard case TellerError.invalidRetryPolicy(let problem) = error else { return false }
            return problem.contains(message) && "\(error)".hasPrefix("Invalid retry policy: ")
        }
    }

    @Test func aNeverEndingDelayIsRefused() {
        #expect(throws: TellerError.self) { try RetryPolicy(initialDelay: .never) }
        #expect(throws: TellerError.self) { try RetryPolicy(maxDelay: .never) }
    }

    @Test func zeroRetriesAndZeroDelaysAreValid() throws {
        let policy = try RetryPolicy(maxRetries: 0, initialDelay: .seconds(0), maxDelay: .seconds(0))
        #expect(policy.baseDelay(afterFailedAttempts: 1) == 0)
        #expect(policy.description == "no retries")
    }
}
