/// Why a subtitle source could not be read as WebVTT.
public enum SubtitleError: Error, Sendable, Equatable {
    /// The first line is not `WEBVTT` (optionally followed by a space or tab and text): not a WebVTT file.
    case missingWebVTTSignature
    /// An SRT source holds text but not one cue with a readable timing line.
    case noSubRipCues
}
