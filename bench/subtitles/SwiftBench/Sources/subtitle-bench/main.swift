import Foundation
import HLS

// Usage: subtitle-bench FILE [SECONDS] [ROUNDS]
// The work webvtt_py_segment.py times, done with the HLS module: read and parse the file, cut it into
// SECONDS-long segments (webvtt-py's count), write each with X-TIMESTAMP-MAP, plus the segmented playlist.
// Prints the median milliseconds of ROUNDS timed runs after one warm-up.

let arguments = CommandLine.arguments
guard arguments.count > 1 else {
    FileHandle.standardError.write(Data("usage: subtitle-bench FILE [SECONDS] [ROUNDS]\n".utf8))
    exit(2)
}
let path = arguments[1]
let seconds = arguments.count > 2 ? Int64(arguments[2]) ?? 6 : 6
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 20 : 20

func segmentFile() throws -> (segments: Int, bytes: Int) {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    let document = try WebVTTDocument.parse(bytes)
        .settingTimestampMap(TimestampMap(mpegts: 126_000), keepExisting: true)
    let window = seconds * 1000
    let count = Int(document.largestEnd / window) + 1
    let segments = document.segmented(boundaries: (0..<count).map { Int64($0) * window })
    let playlist = SubtitlePlaylistBuilder.segmented(
        durations: Array(repeating: Double(seconds), count: segments.count), uri: { "seg\($0).vtt" })
    return (segments.count, segments.reduce(playlist.count) { $0 + $1.serialized().count })
}

do {
    let (count, size) = try segmentFile()
    var samples: [Double] = []
    for _ in 0..<rounds {
        let clock = ContinuousClock()
        let start = clock.now
        _ = try segmentFile()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    }
    samples.sort()
    print(String(format: "HLS module: %d segments, %d bytes; median %.2f ms", count, size, samples[samples.count / 2]))
} catch {
    FileHandle.standardError.write(Data("subtitle-bench: \(error)\n".utf8))
    exit(1)
}
