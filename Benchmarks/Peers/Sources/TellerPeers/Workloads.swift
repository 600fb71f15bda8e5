/// The element counts of TellerBenchmarks: a million `onNext`s for the subject pumping
/// workloads, 100,000 elements for the other pumping workloads and 100,000 or 10,000
/// build-subscribe-dispose cycles for the creating ones.
private let subjectPumpingCount = 1_000_000
private let pumpingCount = 100_000
private let subjectCreatingCount = 100_000
private let creatingCount = 10_000

/// Every workload, in the order of TellerBenchmarks.
func allWorkloads() -> [Workload] {
    var workloads: [Workload] = []
    for (name, subscribers) in [("publish-subject-pumping", 1), ("publish-subject-pumping-2-subscribers", 2)] {
        workloads.append(
            Workload(
                name: name,
                operations: subjectPumpingCount,
                expectedResult: subjectPumpingCount * subscribers,
                tellerRx: { TellerRxWorkloads.subjectPumping(subscribers: subscribers, count: subjectPumpingCount) },
                openCombine: {
                    OpenCombineWorkloads.subjectPumping(subscribers: subscribers, count: subjectPumpingCount)
                },
                note: "PassthroughSubject and sink(receiveValue:)"
            )
        )
    }
    workloads.append(
        Workload(
            name: "publish-subject-creating",
            operations: subjectCreatingCount,
            expectedResult: subjectCreatingCount,
            tellerRx: { TellerRxWorkloads.subjectCreating(count: subjectCreatingCount) },
            openCombine: { OpenCombineWorkloads.subjectCreating(count: subjectCreatingCount) },
            note: "PassthroughSubject and sink(receiveValue:)"
        )
    )
    workloads.append(
        Workload(
            name: "map-filter-6-pumping",
            operations: pumpingCount,
            expectedResult: pumpingCount,
            tellerRx: { TellerRxWorkloads.mapFilterPumping(count: pumpingCount) },
            openCombine: { OpenCombineWorkloads.mapFilterPumping(count: pumpingCount) },
            note: sequenceSourceNote
        )
    )
    workloads.append(
        Workload(
            name: "map-filter-6-creating",
            operations: creatingCount,
            expectedResult: creatingCount,
            tellerRx: { TellerRxWorkloads.mapFilterCreating(count: creatingCount) },
            openCombine: { OpenCombineWorkloads.mapFilterCreating(count: creatingCount) },
            note: sequenceSourceNote
        )
    )
    for latest in [false, true] {
        let stem = latest ? "flat-map-latest-5" : "flat-map-5"
        let note = latest ? "map { Just($0) }.switchToLatest(); " + sequenceSourceNote : sequenceSourceNote
        workloads.append(
            Workload(
                name: stem + "-pumping",
                operations: pumpingCount,
                expectedResult: pumpingCount,
                tellerRx: { TellerRxWorkloads.flatMapPumping(latest: latest, count: pumpingCount) },
                openCombine: { OpenCombineWorkloads.flatMapPumping(latest: latest, count: pumpingCount) },
                note: note
            )
        )
        workloads.append(
            Workload(
                name: stem + "-creating",
                operations: creatingCount,
                expectedResult: creatingCount,
                tellerRx: { TellerRxWorkloads.flatMapCreating(latest: latest, count: creatingCount) },
                openCombine: { OpenCombineWorkloads.flatMapCreating(latest: latest, count: creatingCount) },
                note: note
            )
        )
    }
    workloads.append(
        Workload(
            name: "combine-latest-7-pumping",
            operations: pumpingCount,
            expectedResult: pumpingCount,
            tellerRx: { TellerRxWorkloads.combineLatestPumping(count: pumpingCount) },
            openCombine: nil,
            note: noCombineLatestNote
        )
    )
    workloads.append(
        Workload(
            name: "combine-latest-7-creating",
            operations: creatingCount,
            expectedResult: creatingCount,
            tellerRx: { TellerRxWorkloads.combineLatestCreating(count: creatingCount) },
            openCombine: nil,
            note: noCombineLatestNote
        )
    )
    return workloads
}

private let sequenceSourceNote = "source is an erased Publishers.Sequence, which also sends .finished"
private let noCombineLatestNote = "OpenCombine 0.14.0 has no combineLatest"
