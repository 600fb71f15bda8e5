import TellerRx

/// Runs `body`, then returns how many TellerRx resources it left alive (0 when nothing
/// leaked). Only meaningful in a `.serialized` suite of its own, since other tests running in
/// parallel change the global count; see LeakTests.
func resourcesLeaked(by body: () -> Void) -> Int {
    let before = Resources.total
    body()
    return Resources.total - before
}
