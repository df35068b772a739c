/// Why a subtitle source could not be read as WebVTT.
public enum SubtitleError: Error, Sendable, Equatable {
    /// The first line is not `WEBVTT` (optionally followed by a space or tab and text): not a WebVTT file.
    case missingWebVTTSignature
    /// An SRT source holds text but not one cue with a readable timing line.
    case noSubRipCues
    /// A TTML source is not well-formed XML: what is wrong and the byte offset (in its UTF-8 form) where.
    case malformedXML(reason: String, offset: Int)
    /// A TTML source nests elements deeper than the limit.
    case xmlNestingTooDeep(limit: Int)
    /// A TTML source is larger, or asks for more cue splitting, than the converter accepts.
    case ttmlTooLarge(reason: String)
    /// Well-formed XML whose root is not `tt` in a TTML namespace (the expanded root name is given).
    case notTTML(root: String)
    /// `ttp:timeBase` (or `ttp:markerMode`) that has no fixed mapping to media time, such as `clock`.
    case unsupportedTTMLTimeBase(String)
    /// A TTML source holds paragraphs with text but none with a resolvable time interval; the reason
    /// names the elements left out and why.
    case noTTMLCues(reason: String)
}
