import Foundation
import Teller

// Writes fetch metadata to the file named by the first argument as fast as it can, printing
// "wrote N" after each write returns. The durability test kills this process with SIGKILL at
// random moments and checks that the file is always whole and holds every acknowledged write.

guard CommandLine.arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: TellerMetadataCrashWriter FILE\n".utf8))
    exit(2)
}
let store = FileFetchMetadataStore(url: URL(fileURLWithPath: CommandLine.arguments[1]))
// Many tags make each write large enough for a kill to land mid-write now and then.
let padding = String(repeating: "x", count: 200)
var counter = Int(store.metadata(forTag: "counter")?.lastFetched.timeIntervalSince1970 ?? 0)
while true {
    counter += 1
    do {
        try store.setMetadata(
            FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(counter))),
            forTag: "counter"
        )
        try store.setMetadata(
            FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(counter))),
            forTag: "tag-\(counter % 50)-\(padding)"
        )
    } catch {
        FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
        exit(1)
    }
    // Unbuffered, so the acknowledgement leaves the process before the next write starts.
    FileHandle.standardOutput.write(Data("wrote \(counter)\n".utf8))
}
