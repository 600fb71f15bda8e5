/// The name of the floor benchmark for `workload`.
func floorName(_ workload: String) -> String {
    "floor/" + workload
}

/// The floors: every workload's work done with plain closures and no locks. Registered for
/// every workload, including those whose TellerRx side is still pending.
func addFloorBenchmarks(to suite: inout BenchmarkSuite) {
    suite.add(SubjectPumpingFloor(name: floorName("publish-subject-pumping"), subscribers: 1))
    suite.add(SubjectPumpingFloor(name: floorName("publish-subject-pumping-2-subscribers"), subscribers: 2))
    suite.add(SubjectCreatingFloor(name: floorName("publish-subject-creating")))
    suite.add(MapFilterPumpingFloor(name: floorName("map-filter-6-pumping")))
    suite.add(MapFilterCreatingFloor(name: floorName("map-filter-6-creating")))
    suite.add(FlatMapPumpingFloor(name: floorName("flat-map-5-pumping"), latest: false))
    suite.add(FlatMapCreatingFloor(name: floorName("flat-map-5-creating"), latest: false))
    suite.add(FlatMapPumpingFloor(name: floorName("flat-map-latest-5-pumping"), latest: true))
    suite.add(FlatMapCreatingFloor(name: floorName("flat-map-latest-5-creating"), latest: true))
    suite.add(CombineLatestPumpingFloor(name: floorName("combine-latest-7-pumping")))
    suite.add(CombineLatestCreatingFloor(name: floorName("combine-latest-7-creating")))
    suite.add(LockFloor(name: floorName("locked-state-increment")))
}

/// `PublishSubject` workloads.
func addSubjectBenchmarks(to suite: inout BenchmarkSuite) {
    for (name, subscribers) in [("publish-subject-pumping", 1), ("publish-subject-pumping-2-subscribers", 2)] {
        suite.add(SubjectPumpingBenchmark(name: name, subscribers: subscribers, floor: floorName(name)))
    }
    let creating = "publish-subject-creating"
    suite.add(SubjectCreatingBenchmark(name: creating, floor: floorName(creating)))
}

/// `map`/`filter` chain workloads.
func addMapFilterBenchmarks(to suite: inout BenchmarkSuite) {
    let pumping = "map-filter-6-pumping"
    suite.add(MapFilterPumpingBenchmark(name: pumping, floor: floorName(pumping)))
    let creating = "map-filter-6-creating"
    suite.add(MapFilterCreatingBenchmark(name: creating, floor: floorName(creating)))
}
