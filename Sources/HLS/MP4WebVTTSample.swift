/// Decodes one `wvtt` sample (ISO/IEC 14496-30, the WebVTT sample format): a run of boxes, each `vttc` one cue active for
/// the whole sample (several are simultaneous cues), `vtte` an empty sample (a gap).
///
/// A `vttc` holds `iden` (the cue identifier), `sttg` (the cue settings) and `payl` (the cue text, WebVTT
/// markup kept); `vtta` (additional text, comments) and unknown boxes are ignored. A malformed box ends
/// the sample: the cues before it are kept, and the reason is returned for the log.
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

    /// The cues of the sample, without times (the sample's time and duration give them); empty for a
    /// gap. `problem` says why the sample was cut short: a malformed box ends it, the cues before kept.
    static func cues(_ bytes: [UInt8], range: Range<Int>) -> (cues: [WebVTTCue], problem: String?) {
        var boxes = MP4BoxIterator(bytes, range: range)
        var cues: [WebVTTCue] = []
        while true {
            let next: MP4Box?
            do { next = try boxes.next() } catch { return (cues, "malformed box in the sample (\(error)); the rest of the sample dropped") }
            guard let box = next else { break }
            guard box.type == MP4Box.code("vttc") else { continue }
            let (found, problem) = cue(bytes, box: box)
            if let found { cues.append(found) }
            if let problem { return (cues, problem) }
        }
        return (cues, nil)
    }

    private static func cue(_ bytes: [UInt8], box: MP4Box) -> (cue: WebVTTCue?, problem: String?) {
        var id: String?
        var settings = ""
        var payload: [String] = []
        var children = MP4BoxIterator(bytes, range: box.payload)
        var problem: String?
        while true {
            let next: MP4Box?
            do { next = try children.next() } catch {
                problem = "malformed box inside a vttc (\(error)); the rest of the sample dropped"
                break
            }
            guard let child = next else { break }
            let text = String(decoding: bytes[child.payload], as: UTF8.self)
            switch child.type {
            case MP4Box.code("iden"): id = text.isEmpty ? nil : text
            case MP4Box.code("sttg"): settings = text.trimmingWhitespace
            case MP4Box.code("payl"):
                payload = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }.map(String.init)
            default: break
            }
        }
        // A cue without text shows nothing; players drop it too. A cue cut short keeps what was read.
        guard !payload.isEmpty else { return (nil, problem) }
        return (WebVTTCue(id: id, start: 0, end: 0, settings: settings, payload: payload), problem)
    }
}
