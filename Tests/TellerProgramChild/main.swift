import Dispatch
import Foundation
import Teller
@_spi(TellerInternals) import TellerRx

// A child process for the per-program defaults test: one program using Teller's default
// metadata file and default cache folder, as a command-line tool would. The test runs it under
// two names (two links to this executable) with HOME and the XDG folders in a temporary folder.
//
// `PROGRAM fetch VALUE`: observes "Repos for octocat" until its own fetch, which returns
// [VALUE], is saved and read back; prints `cache [VALUE]`.
// `PROGRAM show`: observes the tag without fetching; prints `noCache` or `cache [..] fetched T`.
// `PROGRAM clear`: forgets every fetch time (`Teller.clear()`) and removes every cache file.
// `PROGRAM where`: prints the default metadata file and the default cache folder.
// `PROGRAM outbox JOURNAL SERVER NAME COUNT TOTAL`: enqueues into and sends from a shared outbox
// (see `OutboxMode`).

struct ReposRequirements: RepositoryRequirements {
    var tag: String { "Repos for octocat" }
}

final class ReposDataSource: CodableRepositoryDataSource {
    typealias Requirements = ReposRequirements

    let maxAgeOfCache = Period(unit: 5, component: .hour)
    let cacheStore: FileCacheStore<[String]>
    let fetched: [String]?

    var automaticallyRefresh: Bool { fetched != nil }

    init(cacheStore: FileCacheStore<[String]>, fetched: [String]?) {
        self.cacheStore = cacheStore
        self.fetched = fetched
    }

    func fetchFreshCache(requirements: ReposRequirements) -> Single<FetchResponse<[String], any Error>> {
        .just(.success(fetched ?? []))
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(1)
}

/// Observes the tag until `isAnswer` accepts a state, and returns its description.
func observe(fetching value: String?, until isAnswer: @escaping @Sendable (CacheState<[String]>) -> Bool) -> String {
    let teller = Teller(uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui"))
    let store: FileCacheStore<[String]>
    do {
        store = try FileCacheStore(directory: FileCacheStore<[String]>.defaultDirectory(named: "repos"), teller: teller)
    } catch {
        fail("no store: \(error)")
    }
    let repository = TellerRepository(
        dataSource: ReposDataSource(cacheStore: store, fetched: value.map { [$0] }),
        teller: teller
    )
    let answer = LockedState<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    let subscription = repository.observe().subscribe(onNext: { state in
        guard isAnswer(state) else { return }
        let isFirst = answer.withLock { answer -> Bool in
            guard answer == nil else { return false }
            answer = describe(state)
            return true
        }
        if isFirst { done.signal() }
    })
    repository.requirements = ReposRequirements()
    if done.wait(timeout: .now() + 60) == .timedOut { fail("no answer within 60 seconds") }
    subscription.dispose()
    return answer.withLock { $0 } ?? ""
}

func describe(_ state: CacheState<[String]>) -> String {
    switch state.state {
    case .noCache: "noCache"
    case .cache(let cache, let age): "cache \(cache ?? []) fetched \(age.timeIntervalSince1970)"
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "fetch" where arguments.count == 2:
    let value = arguments[1]
    print(observe(fetching: value) { $0.cache == [value] })
case "show":
    print(observe(fetching: nil) { !$0.isLoadingCache })
case "clear":
    let teller = Teller(uiScheduler: SerialDispatchQueueScheduler(internalSerialQueueName: "ui"))
    teller.clear()
    do {
        try FileCacheStore<[String]>(
            directory: FileCacheStore<[String]>.defaultDirectory(named: "repos"),
            teller: teller
        )
        .removeAll()
    } catch {
        fail("could not remove the cache files: \(error)")
    }
    print("cleared")
case "where":
    print(FileFetchMetadataStore.defaultURL.path)
    print(FileCacheStore<[String]>.defaultDirectory(named: "repos").path)
case "outbox" where arguments.count == 6:
    guard let count = Int(arguments[4]), let total = Int(arguments[5]) else { fail("COUNT and TOTAL are numbers") }
    OutboxMode.run(journal: arguments[1], server: arguments[2], name: arguments[3], count: count, total: total)
default:
    fail("usage: TellerProgramChild fetch VALUE | show | clear | where | outbox JOURNAL SERVER NAME COUNT TOTAL")
}
