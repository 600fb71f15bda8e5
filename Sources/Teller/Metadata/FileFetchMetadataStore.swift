import Foundation
import TellerRx

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps metadata in a JSON file, so it survives restarts. Teller's default store.
///
/// - The file is read once, on first use, and kept in memory.
/// - Every change rewrites it atomically: a temporary file in the same directory is written,
///   flushed to disk, then renamed over the old one, so a crash at any moment leaves either the
///   old or the new file, never a torn one.
/// - The file is readable and writable by its owner only (mode 0600).
/// - A corrupt or unreadable file is reported through `onProblem` and treated as empty ("never
///   fetched"); the next successful write replaces it.
public final class FileFetchMetadataStore: FetchMetadataStore {
    /// A problem the store recovered from, reported to ``FileFetchMetadataStore/init(url:onProblem:)``'s callback.
    public enum Problem: Sendable, CustomStringConvertible {
        /// The file exists but could not be read or decoded; it was treated as empty.
        case unreadable(url: URL, error: any Error)
        /// A change could not be written to disk; it is kept in memory for this process.
        case unwritable(url: URL, error: any Error)

        /// What happened, with the file path.
        public var description: String {
            switch self {
            case .unreadable(let url, let error):
                "Teller's fetch metadata at \(url.path) could not be read (\(error)); treating every tag as never fetched."
            case .unwritable(let url, let error):
                "Teller's fetch metadata could not be written to \(url.path) (\(error)); keeping it in memory only."
            }
        }
    }

    /// The file's location.
    public let url: URL
    private let onProblem: @Sendable (Problem) -> Void
    private let entries = LockedState<[String: FetchMetadata]?>(nil)
    /// Serializes writers so that renames land in the order the changes were made.
    private let writeLock = LockedState(())

    /// Creates a store backed by the file at `url` (created when first written, along with
    /// missing directories).
    ///
    /// - Parameters:
    ///   - url: The JSON file to use.
    ///   - onProblem: Told about unreadable or unwritable files. Teller passes its logger.
    public init(url: URL, onProblem: @escaping @Sendable (Problem) -> Void = { _ in }) {
        self.url = url
        self.onProblem = onProblem
    }

    /// The default location: `Teller/fetch-metadata.json` under the application-support
    /// directory on Apple platforms, or under `$XDG_DATA_HOME` (default `~/.local/share`) on Linux.
    public static var defaultURL: URL {
        #if canImport(Darwin)
        let base =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        #else
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(
                ".local/share",
                isDirectory: true
            )
        }
        #endif
        return base.appendingPathComponent("Teller", isDirectory: true).appendingPathComponent("fetch-metadata.json")
    }

    /// The metadata for `tag`, reading the file on first use.
    public func metadata(forTag tag: String) -> FetchMetadata? {
        loaded()[tag]
    }

    /// Stores or removes the metadata for `tag` and rewrites the file atomically.
    ///
    /// - Throws: The write error; the change is kept in memory anyway.
    public func setMetadata(_ metadata: FetchMetadata?, forTag tag: String) throws {
        try update { $0[tag] = metadata }
    }

    /// Forgets every tag and rewrites the file.
    ///
    /// - Throws: The write error; memory is cleared anyway.
    public func removeAll() throws {
        try update { $0.removeAll() }
    }

    private func loaded() -> [String: FetchMetadata] {
        if let entries = entries.withLock({ $0 }) { return entries }
        let read = readFile()
        return entries.withLock { entries in
            if let existing = entries { return existing }
            entries = read
            return read
        }
    }

    private func update(_ change: (inout [String: FetchMetadata]) -> Void) throws {
        _ = loaded()
        let failure = writeLock.withLock { _ -> (any Error)? in
            let snapshot = entries.withLock { entries -> [String: FetchMetadata] in
                var updated = entries ?? [:]
                change(&updated)
                entries = updated
                return updated
            }
            do {
                try write(snapshot)
                return nil
            } catch {
                return error
            }
        }
        if let failure {
            onProblem(.unwritable(url: url, error: failure))
            throw failure
        }
    }

    private func readFile() -> [String: FetchMetadata] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return [:] }
            onProblem(.unreadable(url: url, error: error))
            return [:]
        }
        do {
            return try FileFetchMetadataStore.decoder.decode(StoredFile.self, from: data).tags
        } catch {
            onProblem(.unreadable(url: url, error: error))
            return [:]
        }
    }

    private func write(_ entries: [String: FetchMetadata]) throws {
        let data = try FileFetchMetadataStore.encoder.encode(StoredFile(tags: entries))
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp"
        )
        try AtomicFileWriter.write(data, to: url, via: temporary)
    }

    /// The file's format: versioned, so a future layout can be told apart.
    private struct StoredFile: Codable {
        var version = 1
        var tags: [String: FetchMetadata]
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        // Seconds since 1970 as a Double: sub-millisecond exact and locale-free.
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

/// Writes a file so that readers see either the old or the new content: write a temporary
/// file, flush it, rename it over the target, flush the directory.
enum AtomicFileWriter {
    /// A POSIX call failed.
    struct POSIXFailure: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        var description: String {
            "\(call) failed: \(String(cString: strerror(code)))"
        }
    }

    static func write(_ data: Data, to url: URL, via temporary: URL) throws {
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure(call: "open", code: errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do {
            try data.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return }
                var offset = 0
                while offset < buffer.count {
                    let written = Glue.write(descriptor, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw POSIXFailure(call: "write", code: errno)
                    }
                    offset += written
                }
            }
            guard fsync(descriptor) == 0 else { throw POSIXFailure(call: "fsync", code: errno) }
            closed = true
            guard close(descriptor) == 0 else { throw POSIXFailure(call: "close", code: errno) }
            guard rename(temporary.path, url.path) == 0 else { throw POSIXFailure(call: "rename", code: errno) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}

/// The C library's `write`, named apart from `AtomicFileWriter.write`.
private enum Glue {
    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
        #elseif canImport(Glibc)
        Glibc.write(descriptor, buffer, count)
        #else
        Musl.write(descriptor, buffer, count)
        #endif
    }
}
