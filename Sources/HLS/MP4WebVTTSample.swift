/// Decodes one `wvtt` sample (ISO/IEC 14496-30, the WebVTT sample format): a run of boxes, each `vttc` one cue active for
/// the whole sample (several are simultaneous cues), `vtte` an empty sample (a gap).
///
/// A `vttc` holds `iden` (the cue identifier), `sttg` (the cue settings) and `payl` (the cue text, WebVTT
/// markup kept); `vtta` (additional text, comments) and unknown boxes are ignored. A malformed box ends
/// the sample: the cues before it are kept.
enum MP4WebVTTSample {
    /// What makes two samples' cues the same cue: everything but the times.
    struct CueKey: Hashable {
        let id: String?
        let settings: String
        let payload: [String]

        init(_ cue: WebVTTCue) {
            id = cue.id
            settings = cue.settings
            payload = cue.payload
        }
    }

    /// The cues of the sample, without times (the sample's time and duration give them); empty for a gap.
    static func cues(_ bytes: [UInt8], range: Range<Int>) -> [WebVTTCue] {
        var boxes = MP4BoxIterator(bytes, range: range)
        var cues: [WebVTTCue] = []
        while let box = try? boxes.next() {
            guard box.type == MP4Box.code("vttc"), let cue = cue(bytes, box: box) else { continue }
            cues.append(cue)
        }
        return cues
    }

    private static func cue(_ bytes: [UInt8], box: MP4Box) -> WebVTTCue? {
        var id: String?
        var settings = ""
        var payload: [String] = []
        var children = MP4BoxIterator(bytes, range: box.payload)
        while let child = try? children.next() {
            let text = String(decoding: bytes[child.payload], as: UTF8.self)
            switch child.type {
            case MP4Box.code("iden"): id = text.isEmpty ? nil : text
            case MP4Box.code("sttg"): settings = text.trimmingWhitespace
            case MP4Box.code("payl"):
                payload = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
            default: break
            }
        }
        // A cue without text shows nothing; players drop it too.
        guard !payload.isEmpty else { return nil }
        return WebVTTCue(id: id, start: 0, end: 0, settings: settings, payload: payload)
    }
}
