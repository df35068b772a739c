/// Sources read only in part: the HLS readers are pure and return what they left out and why; the
/// loader says so in one warn line per load of the track, not one per cue or request.
extension SubtitleCueLoader {
    /// Logs `count` parts of the source left out (TTML elements with a malformed time, MP4 samples
    /// refused or cut short), with the first few reasons; nothing when none were.
    func noteDropped(_ count: Int, reasons: [String], what: String, track: TrackConfig) {
        guard count > 0 else { return }
        logger.log(.warn, "subtitle source read in part: some cues dropped", [
            ("track", track.id), ("dropped", "\(count) \(what)"), ("reasons", Sanitized.text(reasons.joined(separator: "; "), limit: 400)),
        ])
    }
}
