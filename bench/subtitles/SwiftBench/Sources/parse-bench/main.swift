import Foundation
import HLS

// Usage: parse-bench FILE [ROUNDS]
// Reads FILE once and parses it ROUNDS times with WebVTTDocument.parse: the cold start's sidecar parse,
// alone, for callgrind. Instructions per cue are the difference between two ROUNDS divided by the extra
// parses and the cue count (bench/README.md "The cold start"), so reading the file and start-up cancel out.

let arguments = CommandLine.arguments
guard arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: parse-bench FILE [ROUNDS]\n".utf8))
    exit(2)
}
let rounds = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
do {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: arguments[1])))
    var cues = 0
    for _ in 0..<rounds {
        // Only the count is read: the instructions counted are the parse's and the document's release.
        cues = try WebVTTDocument.parse(bytes).cues.count
    }
    print("\(rounds) parses of \(cues) cues")
} catch {
    FileHandle.standardError.write(Data("parse-bench: \(error)\n".utf8))
    exit(1)
}
