import Foundation
import Testing
import TestSupport
@testable import HLS

/// Each TTML fixture against its expected WebVTT, byte for byte. With `TTML_OUTPUT_DIR` set, our output is
/// also written there, for bench/ttml_oracle.sh to compare with an independent converter.
@Suite struct TTMLGoldenTests {
    static let fixtures = ["imsc1-ebu-tt-d.ttml", "netflix-dfxp.dfxp", "frames-and-offsets.ttml", "dfxp-2006-04.xml", "every-construct.ttml"]

    @Test(arguments: fixtures) func fixtureConvertsToItsGoldenWebVTT(_ name: String) throws {
        let source = try fixture("subtitles/\(name)")
        let output = try TTMLConverter.webVTT(from: source).serialized()
        if let folder = ProcessInfo.processInfo.environment["TTML_OUTPUT_DIR"] {
            try Data(output).write(to: URL(fileURLWithPath: folder).appendingPathComponent("\(name).vtt"))
        }
        let golden = try fixture("golden/ttml/\(name).vtt")
        #expect(String(decoding: output, as: UTF8.self) == String(decoding: golden, as: UTF8.self))
        // The output is valid WebVTT that our own parser reads back to the same cues.
        #expect(try WebVTTDocument.parse(output) == TTMLConverter.webVTT(from: source))
    }
}
