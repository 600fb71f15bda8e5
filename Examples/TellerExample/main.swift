import Dispatch
import Foundation
import Teller
import TellerRx

// A command-line tour of Teller: a paging repository of repos, cached in Teller's file store, with
// every state it reports printed as a timeline. `swift run TellerExample --help` explains the
// keys and options; README.md beside this file walks through a session.

/// Wires the example together the way an app would, runs it, and returns the exit status.
func run(_ arguments: Arguments) -> Int32 {
    let timeline = Timeline()
    let directory = arguments.cacheDirectory
    let simulated = SimulatedAPI(
        latency: arguments.latency,
        failing: arguments.fail,
        failingRequests: arguments.failRequests
    )
    let api: any ReposAPI = if let url = arguments.url { HTTPReposAPI(url: url) } else { simulated }
    timeline.heading("TellerExample: repos from the \(api.summary)")
    timeline.heading("cache: \(directory.path)")
    if arguments.isInteractive {
        timeline.heading(
            "keys: r refresh · f forced refresh · n next page · i invalidate · e server errors on/off · q quit"
        )
    }
    if arguments.reset {
        try? FileManager.default.removeItem(at: directory)
        timeline.note("--reset: deleted the cache directory")
    }

    // When each tag was last fetched, kept next to the cache: a second run knows the cache's age.
    let metadata = FileFetchMetadataStore(url: directory.appendingPathComponent("fetch-metadata.json")) { problem in
        timeline.note("metadata: \(problem)")
    }
    var logger: (@Sendable (TellerLogEvent) -> Void)?
    if arguments.log {
        logger = { event in timeline.note("log: \(event)") }
    }
    let teller = Teller(
        metadataStore: metadata,
        // Teller delivers states on its UI scheduler, the main queue by default. A command-line
        // tool has no main run loop (and our main thread just waits to quit), so main-queue work
        // would never run: give Teller a serial queue of its own to act as the UI thread.
        uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui"),
        fetchTimeout: .seconds(15),
        retryPolicy: arguments.retry ? Arguments.retryPolicy : .never,
        logger: logger
    )
    // The repos, one file per list in `repos/`: a list unused for 30 days is evicted (and its
    // fetch time forgotten), as is the least recently used one while they take over 5 MB.
    let store: FileCacheStore<[[Repo]]>
    do {
        store = try FileCacheStore(
            directory: directory.appendingPathComponent("repos", isDirectory: true),
            maxTotalBytes: 5_000_000,
            maxUnusedAge: Period(unit: 30, component: .day),
            teller: teller
        )
    } catch {
        timeline.note("\(error)")
        return 1
    }
    let repository = TellerPagingRepository(
        dataSource: FileCacheDataSource(api: api, store: store),
        firstPageRequirements: ReposPaging(page: 1),
        teller: teller
    )

    let states = repository.observe().subscribe(onNext: { state in timeline.record(state) })
    repository.requirements = ReposRequirements(source: arguments.url?.absoluteString ?? "the simulated server")

    // Whoever ends the run first sets the exit status: q or the end of input, the end of the
    // script, or --exit-after.
    let status = LockedBox<Int32?>(nil)
    let finished = DispatchSemaphore(value: 0)
    let finish: @Sendable (Int32) -> Void = { code in
        let isFirst = status.withLock { status in
            guard status == nil else { return false }
            status = code
            return true
        }
        if isFirst { finished.signal() }
    }
    if let seconds = arguments.exitAfter {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            timeline.note("--exit-after \(seconds) s: quitting")
            finish(0)
        }
    }
    let controller = Controller(
        repository: repository,
        teller: teller,
        timeline: timeline,
        simulated: arguments.url == nil ? simulated : nil
    )
    let keys = arguments.scriptedKeys
    let isInteractive = arguments.isInteractive
    // Reading keys blocks, so it happens off the main thread, which waits for the end here.
    Thread.detachNewThread {
        let settled = isInteractive ? controller.readKeys() : controller.runScript(keys)
        finish(settled ? 0 : 1)
    }
    finished.wait()
    states.dispose()
    return status.value ?? 0
}

do {
    let arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
    if arguments.showHelp {
        print(Arguments.usage)
        exit(0)
    }
    exit(run(arguments))
} catch {
    FileHandle.standardError.write(Data("TellerExample: \(error)\nTry --help.\n".utf8))
    exit(2)
}
