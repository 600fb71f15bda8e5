import Foundation
import Teller

// A child process for the metadata tests, in one of two modes:
//
// `TellerMetadataCrashWriter FILE`: writes fetch metadata to FILE as fast as it can, printing
// "wrote N" after each write returns. The durability test kills this process with SIGKILL at
// random moments and checks that the file is always whole and holds every acknowledged write.
//
// `TellerMetadataCrashWriter FILE --tags PREFIX COUNT`: opens a store on FILE and reads it, prints
// "loaded", waits for a line on standard input, then writes the tags PREFIX-0 … PREFIX-(COUNT-1)
// (tag i last fetched at i seconds after 1970), one write each, and exits. The sharing tests
// start two of these (and write from the test process) to check that no process loses another's
// tags and that each sees the others' writes.

let arguments = CommandLine.arguments
let tagsMode = arguments.count == 5 && arguments[2] == "--tags"
guard arguments.count == 2 || tagsMode else {
    FileHandle.standardError.write(Data("usage: TellerMetadataCrashWriter FILE [--tags PREFIX COUNT]\n".utf8))
    exit(2)
}
let store = FileFetchMetadataStore(url: URL(fileURLWithPath: arguments[1]))

if tagsMode {
    let prefix = arguments[3]
    let count = Int(arguments[4]) ?? 0
    _ = store.metadata(forTag: "\(prefix)-0")
    FileHandle.standardOutput.write(Data("loaded\n".utf8))
    _ = readLine()
    for index in 0..<count {
        do {
            try store.setMetadata(
                FetchMetadata(lastFetched: Date(timeIntervalSince1970: Double(index))),
                forTag: "\(prefix)-\(index)"
            )
        } catch {
            FileHandle.standardError.write(Data("write failed: \(error)\n".utf8))
            exit(1)
        }
    }
    exit(0)
}

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
