import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `--memory`: bytes held per live subscription, measured as the growth of the resident set
/// while 100,000 subscriptions are alive. Linux only (it reads `/proc/self/statm`; glibc's
/// `mallinfo2` is not visible to Swift). It runs first, in a fresh process, so the
/// subscriptions cannot reuse memory freed earlier; 16 subscriptions made beforehand fault in
/// the code and fill the runtime's type caches, so those are not counted. The figure includes
/// malloc's per-block overhead and, for subjects, the subject's list of subscribers.
enum MemoryReport {
    static let count = 100_000

    static func run() -> String {
        guard residentBytes() != nil else {
            return "--memory needs /proc/self/statm (Linux)"
        }
        let sum = Accumulator()
        let closureSubject = ClosureSubject()
        let subject = PublishSubject<Int>()
        let chain = Observable<Int>.create { _ in Disposables.create() }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
            .map { $0 }.filter { _ in true }
        let lines = [
            measure("floor/publish-subject: one handler closure and its list entry") {
                _ = closureSubject.subscribe { sum.value += $0 }
                return nil
            },
            measure("publish-subject: one subscribe(onNext:) subscription") {
                subject.subscribe(onNext: { sum.value += $0 })
            },
            measure("map-filter-6: one subscription to the chain (13 operators, silent source)") {
                chain.subscribe(onNext: { sum.value += $0 })
            },
        ]
        blackHole(sum.value)
        return lines.joined(separator: "\n")
    }

    /// Keeps what `subscribe` returns alive (in an array reserved beforehand, so its growth is
    /// not measured), then disposes it all.
    private static func measure(_ label: String, _ subscribe: () -> (any Disposable)?) -> String {
        var kept: [(any Disposable)?] = []
        kept.reserveCapacity(count + 16)
        for _ in 0..<16 { kept.append(subscribe()) }
        let before = residentBytes() ?? 0
        for _ in 0..<count { kept.append(subscribe()) }
        let after = residentBytes() ?? 0
        for subscription in kept { subscription?.dispose() }
        let perSubscription = Double(after - before) / Double(count)
        return "\(label): \(format(perSubscription, decimals: 0)) B"
    }

    /// The resident set size of this process, or `nil` where `/proc` is unavailable.
    private static func residentBytes() -> Int? {
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let length = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard length > 0 else { return nil }
        // "size resident shared text lib data dt", in pages.
        let fields = String(decoding: buffer[..<length], as: UTF8.self).split(separator: " ")
        guard fields.count >= 2, let residentPages = Int(fields[1]) else { return nil }
        return residentPages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
