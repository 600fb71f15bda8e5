import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The POSIX calls behind ``FileFetchMetadataStore`` and ``FileCacheStore``: atomic replacement,
// an advisory lock shared with other processes, and a cheap "has the file changed" check.

/// The per-user folders Teller's files live in by default.
enum UserFolders {
    /// On Apple platforms the user-domain `apple` directory; on Linux the folder in the
    /// environment variable `xdgVariable` when it holds an absolute path, else `linuxDefault`
    /// under the home directory.
    static func base(
        apple: FileManager.SearchPathDirectory,
        xdgVariable: String,
        linuxDefault: String
    ) -> URL {
        #if canImport(Darwin)
        FileManager.default.urls(for: apple, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        #else
        if let xdg = ProcessInfo.processInfo.environment[xdgVariable], xdg.hasPrefix("/") {
            URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(linuxDefault, isDirectory: true)
        }
        #endif
    }

    /// This program's folder for files that must last (``FileFetchMetadataStore``'s and the
    /// outbox's): `<program>/Teller` under the application-support directory on Apple
    /// platforms, or under `$XDG_DATA_HOME` (default `~/.local/share`) elsewhere.
    static func dataFolder(programIdentifier: String) -> URL {
        let base = base(apple: .applicationSupportDirectory, xdgVariable: "XDG_DATA_HOME", linuxDefault: ".local/share")
        return programFolder(base: base, programIdentifier: programIdentifier)
    }

    /// This program's own folder under `base`: `<base>/<program>/Teller`. Each program gets its
    /// own, as Apple's file-system guide asks of Application Support and Caches and as the XDG
    /// folders are used on Linux, so two programs of one user never share fetch times or files.
    static func programFolder(base: URL, programIdentifier: String) -> URL {
        base.appendingPathComponent(pathComponent(programIdentifier), isDirectory: true)
            .appendingPathComponent("Teller", isDirectory: true)
    }

    /// The bundle identifier on Apple platforms when the program has one, otherwise the name the
    /// executable was started under.
    static var programIdentifier: String {
        #if canImport(Darwin)
        if let identifier = Bundle.main.bundleIdentifier, !identifier.isEmpty { return identifier }
        #endif
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").lastPathComponent
        return executable.isEmpty ? ProcessInfo.processInfo.processName : executable
    }

    /// `identifier` made safe as one folder name: a "/" (or any character a file system might
    /// refuse) becomes "_", and a name of dots alone or nothing becomes "_" too, so the folder
    /// always stays inside `base`.
    static func pathComponent(_ identifier: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_ ")
        let cleaned = String(identifier.map { allowed.contains($0) ? $0 : "_" })
        return cleaned.allSatisfy { $0 == "." } ? "_" + cleaned : cleaned
    }
}

/// A POSIX call failed.
struct POSIXFailure: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    var description: String {
        "\(call) failed: \(String(cString: strerror(code)))"
    }
}

/// What identifies one version of a file without reading it: which file (device and inode),
/// its size and its modification time. Every atomic replacement makes a new inode, and the
/// writer's own version stays identifiable because its stamp is taken from the descriptor it
/// wrote through.
struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    private init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// The stamp of the file at `path`, or `nil` when there is none (or it cannot be examined).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The stamp of the open file `descriptor`.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }
}

/// Reads a whole file together with the stamp of the version read.
enum StampedFileReader {
    /// The file's content and stamp, or `nil` when there is no file.
    static func read(path: String) throws -> (data: Data, stamp: FileStamp?)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            // No file, or a missing folder on the way to it: never written.
            if code == ENOENT || code == ENOTDIR { return nil }
            throw POSIXFailure(call: "open", code: code)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        let stamp = FileStamp(descriptor: descriptor)
        let data = try handle.readToEnd() ?? Data()
        return (data, stamp)
    }
}

/// Writes a file so that readers see either the old or the new content: write a temporary
/// file, flush it, rename it over the target, flush the directory.
enum AtomicFileWriter {
    /// - Parameter modificationDate: The modification (and access) time to give the file; `nil`
    ///   keeps the time of the write.
    /// - Returns: The stamp of the file written, which is the target's stamp until it is replaced.
    @discardableResult
    static func write(_ data: Data, to url: URL, via temporary: URL, modificationDate: Date? = nil) throws -> FileStamp?
    {
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXFailure(call: "open", code: errno) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        let stamp: FileStamp?
        do {
            try DescriptorIO.writeAll(data, to: descriptor)
            if let modificationDate {
                let times = FileTimes.timespecs(modificationDate)
                guard futimens(descriptor, times) == 0 else { throw POSIXFailure(call: "futimens", code: errno) }
            }
            guard fsync(descriptor) == 0 else { throw POSIXFailure(call: "fsync", code: errno) }
            // Renaming keeps the inode, size and modification time, so this is the target's stamp.
            stamp = FileStamp(descriptor: descriptor)
            closed = true
            guard close(descriptor) == 0 else { throw POSIXFailure(call: "close", code: errno) }
            guard rename(temporary.path, url.path) == 0 else { throw POSIXFailure(call: "rename", code: errno) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        DescriptorIO.syncDirectory(of: url)
        return stamp
    }

    /// A temporary file next to `url` for ``write(_:to:via:modificationDate:)``: hidden, and
    /// unique to this process and call, so that concurrent writers never share one.
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp"
        )
    }

    /// Removes the temporary files of writes of `url` that never finished: their process died
    /// between writing and renaming. Call only under the lock every writer of `url` holds, so
    /// no write is between the two now. Only names ``temporaryURL(for:)`` makes for `url` match
    /// (a process number and a UUID between its name and `.tmp`), never those of another file
    /// whose name starts alike.
    static func removeStaleTemporaryFiles(for url: URL) {
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 3, Int32(parts[0]) != nil, UUID(uuidString: String(parts[1])) != nil, parts[2] == "tmp"
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }
}

/// Reading and writing through an open descriptor, retrying interrupted and partial calls.
enum DescriptorIO {
    /// Writes all of `data` at the descriptor's offset (the end, for one opened `O_APPEND`).
    static func writeAll(_ data: Data, to descriptor: Int32) throws {
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
    }

    /// The `count` bytes at `offset`, or fewer when the file ends sooner.
    static func read(_ descriptor: Int32, at offset: Int64, count: Int) throws -> Data {
        var data = Data(count: count)
        let read = try data.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var done = 0
            while done < count {
                let result = pread(descriptor, base + done, count - done, off_t(offset) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw POSIXFailure(call: "pread", code: errno)
                }
                if result == 0 { break }
                done += result
            }
            return done
        }
        if read < count { data.removeSubrange(read...) }
        return data
    }

    /// Flushes the directory holding `url`, so that a file just created or renamed there
    /// survives a power loss along with its content. Best effort: a directory that cannot be
    /// opened is left as it is.
    static func syncDirectory(of url: URL) {
        let directory = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}

/// A file's access and modification times, set to a date of the caller's clock (Teller's clock,
/// which tests run on virtual time), so "when was this last used" follows that clock.
enum FileTimes {
    /// Sets both times of the file at `path` to `date`.
    static func set(path: String, to date: Date) throws {
        guard utimensat(AT_FDCWD, path, timespecs(date), 0) == 0 else {
            throw POSIXFailure(call: "utimensat", code: errno)
        }
    }

    /// The file's modification time.
    static func modified(_ stamp: FileStamp) -> Date {
        Date(timeIntervalSince1970: Double(stamp.modifiedSeconds) + Double(stamp.modifiedNanoseconds) / 1e9)
    }

    /// `date` as the two `timespec`s (access, modification) that `utimensat` and `futimens` take.
    static func timespecs(_ date: Date) -> [timespec] {
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        let nanoseconds = min(999_999_999, max(0, ((interval - seconds) * 1e9).rounded()))
        let time = timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds))
        return [time, time]
    }
}

/// The C library's `write`, named apart from `AtomicFileWriter.write` and `DescriptorIO`'s.
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
