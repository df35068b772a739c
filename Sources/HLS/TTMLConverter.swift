/// Converts TTML subtitles (TTML1/TTML2, the IMSC1 text profile, and the older DFXP namespaces) to WebVTT.
///
/// The file is read by `XMLTokenizer` (no XML library: the HLS module imports nothing). Times follow
/// TTML1 §10: every time expression form, `begin`/`end`/`dur` (the active end is min(end, begin+dur)),
/// relative to the parent's begin in `par` containers (the default) and to the previous sibling's end in
/// `seq` ones, and clipped to the parent's interval. A `<p>` whose `<span>`s carry their own timing is
/// split into one cue per interval in which its visible text stays the same, as an ISD sequence would
/// show it (one intermediate synchronic document per interval). `<br/>` breaks the cue line; italic, bold and underline (inline, through
/// `style` references, or from the region) become `<i>`, `<b>`, `<u>`; other styling and layout are
/// dropped. Whitespace is collapsed unless `xml:space="preserve"`, where source line ends break lines.
/// An element with an unreadable time expression (TTML2 §10.3.1, fields in range) is left out, with its
/// content, and counted with its reason in `conversion(from:maxCues:)`.
public enum TTMLConverter {
    /// Sources larger than this are refused before parsing (32 MiB; real files are well under 5 MiB).
    public static let maximumBytes = 32 << 20

    /// TTML1/TTML2 (and IMSC1), DFXP 1.0 (2006/10) and the 2006/04 working draft.
    static let ttNamespaces: Set<String> = [
        "http://www.w3.org/ns/ttml", "http://www.w3.org/2006/10/ttaf1", "http://www.w3.org/2006/04/ttaf1",
    ]
    /// `ttp:` parameter attributes, in each generation's namespace.
    static let parameterNamespaces: Set<String> = [
        "http://www.w3.org/ns/ttml#parameter", "http://www.w3.org/2006/10/ttaf1#parameter",
        "http://www.w3.org/2006/04/ttaf1#parameter",
    ]
    /// `tts:` styling attributes; DFXP drafts also used `#style`.
    static let stylingNamespaces: Set<String> = [
        "http://www.w3.org/ns/ttml#styling", "http://www.w3.org/2006/10/ttaf1#styling",
        "http://www.w3.org/2006/04/ttaf1#styling", "http://www.w3.org/2006/10/ttaf1#style",
        "http://www.w3.org/2006/04/ttaf1#style",
    ]

    /// The WebVTT form of a TTML file, cues sorted by start. Reading stops after `maxCues` cues (in
    /// document order). A document without paragraphs gives an empty document; paragraphs with text but
    /// no cue that can be timed fail with `noTTMLCues`.
    public static func webVTT(from bytes: [UInt8], maxCues: Int = .max) throws(SubtitleError) -> WebVTTDocument {
        try conversion(from: bytes, maxCues: maxCues).document
    }

    /// What `webVTT(from:maxCues:)` makes, with the elements it left out for a malformed time expression.
    public struct Conversion: Sendable, Equatable {
        /// The WebVTT document.
        public var document: WebVTTDocument
        /// How many elements (with their content) were left out for a malformed time expression, or cues
        /// for an indefinite end or a time past the Int64 millisecond range.
        public var droppedCount: Int
        /// Why, for the first few: the element, attribute and value, and what is wrong with it.
        public var droppedReasons: [String]
    }

    /// The WebVTT form of a TTML file and what was left out of it (see `webVTT(from:maxCues:)`).
    public static func conversion(from bytes: [UInt8], maxCues: Int = .max) throws(SubtitleError) -> Conversion {
        guard bytes.count <= maximumBytes else { throw .ttmlTooLarge(reason: "\(bytes.count) bytes, over \(maximumBytes)") }
        let root = try XMLTokenizer.parse(TextEncoding.utf8Bytes(from: bytes))
        guard root.name.local == "tt", ttNamespaces.contains(root.name.namespace) else {
            throw .notTTML(root: root.name.namespace.isEmpty ? root.name.local : "{\(root.name.namespace)}\(root.name.local)")
        }
        try checkTimeBase(root)
        var builder = TTMLCueBuilder(root: root, maxCues: max(0, maxCues))
        let document = try builder.makeDocument()
        return Conversion(document: document, droppedCount: builder.droppedCount, droppedReasons: builder.droppedReasons)
    }

    /// TTML1 §6.2.11: `media` times are media times. `smpte` time codes are read as a continuous count
    /// (what `ttp:markerMode="continuous"` declares and authoring tools produce) of frames at the nominal
    /// rate, `nonDrop` or `dropNTSC` (`TTMLTimeExpression`); `discontinuous` marker
    /// mode and `clock` time have no fixed mapping to media time and are refused.
    private static func checkTimeBase(_ root: XMLTree.Element) throws(SubtitleError) {
        let timeBase = root.attribute("timeBase", in: parameterNamespaces)?.trimmingWhitespace ?? "media"
        switch timeBase {
        case "media":
            return
        case "smpte":
            if root.attribute("markerMode", in: parameterNamespaces)?.trimmingWhitespace == "discontinuous" {
                throw .unsupportedTTMLTimeBase("smpte with discontinuous markers")
            }
            // TTML1 §6.2.3: dropPAL's dropping rule is not implemented; refused rather than mistimed.
            if root.attribute("dropMode", in: parameterNamespaces)?.trimmingWhitespace == "dropPAL" {
                throw .unsupportedTTMLTimeBase("smpte with dropMode dropPAL")
            }
        default:
            throw .unsupportedTTMLTimeBase(timeBase)
        }
    }
}
