import Foundation
import Teller
import Testing

/// An app that shows `error.localizedDescription` shows Teller's own message for every case, as
/// with Teller-iOS, not Foundation's "The operation could not be completed".
@Suite struct TellerErrorLocalizedDescriptionTests {
    static let everyCase: [TellerError] = [
        .objectPropertiesNotSet(["requirements"]),
        .fetchTimedOut(tag: "repos-octocat", seconds: 60),
        .fetchProducedNoResponse(tag: "repos-octocat"),
        .invalidRetryPolicy("maxRetries is -1"),
    ]

    @Test(arguments: everyCase)
    func localizedDescriptionIsTheErrorsOwnMessage(error: TellerError) {
        let shown = (error as any Error).localizedDescription

        #expect(shown == error.description)
        #expect(error.errorDescription == error.description)
        #expect(!shown.contains("could not be completed"))
    }

    @Test func objectPropertiesNotSetNamesTheMissingProperties() {
        let error: any Error = TellerError.objectPropertiesNotSet(["requirements", "pagingRequirements"])

        #expect(error.localizedDescription.contains("`requirements`"))
        #expect(error.localizedDescription.contains("`pagingRequirements`"))
    }

    @Test(arguments: everyCase)
    func everyCaseSaysWhatWentWrong(error: TellerError) {
        let message = error.errorDescription ?? ""

        #expect(message.count > 20)
        #expect(message.hasSuffix("."))
    }
}
