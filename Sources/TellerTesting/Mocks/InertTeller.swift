import Teller

/// The environment of repository mocks created without one: in memory, so a mock touches no
/// file. The mocks override every member that would use it.
let inertTeller = Teller(metadataStore: InMemoryFetchMetadataStore(), fetchTimeout: nil)
