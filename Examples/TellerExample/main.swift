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
    // Before anything reads the directory: the simulated server keeps its stars there too.
    if arguments.reset { try? FileManager.default.removeItem(at: directory) }
    let simulated = SimulatedAPI(
        latency: arguments.latency,
        failing: arguments.fail,
        failingRequests: arguments.failRequests,
        starsFile: directory.appendingPathComponent("simulated-server-stars.json")
    )
    let api: any ReposAPI = if let url = arguments.url { HTTPReposAPI(url: url) } else { simulated }
    timeline.heading("TellerExample: repos from the \(api.summary)")
    timeline.heading("cache: \(directory.path)")
    if arguments.isInteractive {
        timeline.heading(
            "keys: r refresh · f forced refresh · n next page · i invalidate · e server errors on/off"
                + " · s star a repo · x refuse the next star · q quit"
        )
    }
    if arguments.reset { timeline.note("--reset: deleted the cache directory") }

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
    // The user's edits (stars), kept in a journal next to the cache until the server takes them:
    // an edit made while the server is down survives a restart. Repositories of this Teller
    // show the edits waiting (FileCacheDataSource.applyPendingWrites).
    let outbox = TellerOutbox(teller: teller, journalURL: directory.appendingPathComponent("outbox.journal"))
    let edits = outbox.changes.subscribe(onNext: { change in
        timeline.record(change)
        // The timeline told the user: a refusal need not be listed again at the next launch.
        if case .rejected(let rejection) = change { outbox.acknowledge(rejectionOf: rejection.record.id) }
    })
    for rejection in outbox.rejections {
        timeline.note("a star refused in an earlier run: \(rejection.error)")
        outbox.acknowledge(rejectionOf: rejection.record.id)
    }
    // What earlier runs left unsent goes out once its handler is registered: with --url there is
    // no star endpoint, so stars wait for a run on the simulated server.
    let launchEdits = outbox.pending.map(\.id)
    if arguments.url == nil { StarEdit.registerSender(on: outbox, server: simulated) }
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
        simulated: arguments.url == nil ? simulated : nil,
        outbox: outbox
    )
    let keys = arguments.scriptedKeys
    let isInteractive = arguments.isInteractive
    // Reading keys blocks, so it happens off the main thread, which waits for the end here.
    Thread.detachNewThread {
        let settled: Bool
        if isInteractive {
            settled = controller.readKeys(launchEdits: launchEdits)
        } else {
            settled = controller.runScript(keys, launchEdits: launchEdits)
        }
        finish(settled ? 0 : 1)
    }
    finished.wait()
    states.dispose()
    edits.dispose()
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
