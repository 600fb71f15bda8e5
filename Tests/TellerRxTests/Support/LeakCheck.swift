import TellerRx

/// Runs `body`, then returns how many TellerRx resources it left alive on this thread (0 when
/// nothing leaked). Uses the calling thread's count, so tests running in parallel on other
/// threads do not disturb it; `body` must free what it creates before it returns (no work
/// left on other threads).
func resourcesLeaked(by body: () -> Void) -> Int {
    let before = Resources.totalOnCurrentThread
    body()
    return Resources.totalOnCurrentThread - before
}
