import Foundation
import Teller
import TellerRx
import TellerTestSupport
import TellerTesting
import Testing

/// Teller-iOS's `test_refresh_expectReturnsFromClosure` changes a captured `var` inside a mock
/// closure. The closures are `@Sendable` here, so the ported test declares the variable
/// `nonisolated(unsafe)` (the README's one-line change) and otherwise runs as written.
@Suite struct MockClosuresChangingCapturedVarsTests {
    @Test func aNonisolatedUnsafeVarLetsAClosureHandOutOneAnswerPerCall() throws {
        let repository = TellerRepositoryMock(
            dataSource: RepositoryDataSourceMock<String, TestRequirements, String, Error>()
        )
        repository.requirements = TestRequirements(username: "")
        nonisolated(unsafe) var givenInvocations: [RefreshResult] = [
            RefreshResult.successful,
            RefreshResult.skipped(reason: .cancelled),
        ]
        let expectedInvocations = givenInvocations

        repository.refreshClosure = { _ in
            Single.just(givenInvocations.removeFirst())
        }

        let actualFirstResult = try repository.refresh(force: false).toBlocking().first()
        let actualSecondResult = try repository.refresh(force: false).toBlocking().first()

        #expect(actualFirstResult == expectedInvocations[0])
        #expect(actualSecondResult == expectedInvocations[1])
        #expect(givenInvocations.isEmpty)
    }
}
