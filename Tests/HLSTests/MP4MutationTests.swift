import Foundation
@testable import HLS
import TestSupport
import Testing

extension SeededGenerator {
    /// A copy of `bytes` with a few bytes overwritten (often with 0x00, 0xFF or 0x47), or cut short.
    mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var copy = bytes
        for _ in 0..<Int.random(in: 1...8, using: &self) {
            let value: UInt8 = [0x00, 0xFF, 0x47, 0x01, UInt8.random(in: 0...255, using: &self)].randomElement(using: &self) ?? 0
            copy[Int.random(in: 0..<copy.count, using: &self)] = value
        }
        if Bool.random(using: &self) { copy = Array(copy.prefix(Int.random(in: 0...copy.count, using: &self))) }
        return copy
    }
}

@Suite struct MP4MutationTests {
    @Test func mutatedContainersGiveAnswersOrTypedErrorsNeverTraps() throws {
        let ts = Array(try fixture("vod-ts/v0/seg000.ts").prefix(188 * 60))
        let initSegment = try fixture("vod-fmp4/init.mp4")
        let media = Array(try fixture("vod-fmp4/seg000.m4s").prefix(4096))
        let movText = try fixture("subtitles/mp4-with-mov_text.mp4")
        let twoTracks = try fixture("corpus/mp4/ffmpeg-generated-2x-mov_text-eng-fra.mp4")
        let fragmented = try fixture("subtitles/mp4-fragmented-mov_text.mp4")
        var generator = SeededGenerator()
        var outcomes = (answers: 0, errors: 0)
        func record(_ body: () throws -> Void) {
            do {
                try body()
                outcomes.answers += 1
            } catch {
                #expect(error is MediaError)
                outcomes.errors += 1
            }
        }
        for _ in 0..<400 {
            let mutatedTS = generator.mutate(ts)
            record { _ = try MPEGTSReader.firstPTS(mutatedTS) }
            let mutatedInit = generator.mutate(initSegment)
            let mutatedMedia = generator.mutate(media)
            record { _ = try FragmentedMP4Reader.firstPTS(initSegment: mutatedInit, mediaSegment: media) }
            record { _ = try FragmentedMP4Reader.firstPTS(initSegment: initSegment, mediaSegment: mutatedMedia) }
            let mutatedText = generator.mutate(movText)
            record { _ = try MP4TextTrackReader.read(mutatedText) }
            let mutatedTwoTracks = generator.mutate(twoTracks)
            record { _ = try MP4TextTrackReader.read(mutatedTwoTracks) }
            let mutatedFragmented = generator.mutate(fragmented)
            record { _ = try MP4TextTrackReader.read(mutatedFragmented) }
        }
        // Both kinds of outcome occur: the mutations hit parsed bytes and spare others.
        #expect(outcomes.answers > 0)
        #expect(outcomes.errors > 0)
    }

    @Test func randomBytesNeverTrap() {
        var generator = SeededGenerator()
        for length in [0, 1, 7, 8, 187, 188, 189, 376, 1000] {
            for _ in 0..<30 {
                let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                _ = try? MPEGTSReader.firstPTS(bytes)
                _ = try? FragmentedMP4Reader.firstPTS(initSegment: bytes, mediaSegment: bytes)
                _ = try? MP4TextTrackReader.read(bytes)
            }
        }
    }
}
