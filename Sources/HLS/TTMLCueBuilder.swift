/// Walks a TTML `<body>` and turns its paragraphs into WebVTT cues (see `TTMLConverter` for the rules).
struct TTMLCueBuilder {
    /// What an element hands down to its children: its active interval, style and whitespace mode.
    struct Context {
        var begin: TTMLTime
        /// nil: indefinite (TTML1 §10.4: an untimed element lasts as long as its parent).
        var end: TTMLTime?
        var style: TTMLTextStyle
        var preservesSpace: Bool
    }

    /// A cue whose end may still be indefinite, resolved once the whole body has been read.
    private struct Candidate {
        let start: TTMLTime
        var end: TTMLTime?
        let payload: [String]
    }

    /// Bounds the cost of rendering split paragraphs, once per interval their span timing makes:
    /// intervals times (pieces plus text bytes), summed over the document.
    static let maximumSplittingWork = 20_000_000

    private let parameters: TTMLTimeParameters
    private let styleSheet: TTMLStyleSheet
    private let body: XMLTree.Element?
    private let maxCues: Int
    private var candidates: [Candidate] = []
    private var latestFiniteTime = TTMLTime.zero
    private var sawParagraphText = false
    private var splittingWork = 0
    /// Elements left out for a malformed time expression, and cues without a finite time in Int64 ms:
    /// how many, and the first few reasons.
    private(set) var droppedCount = 0
    private(set) var droppedReasons: [String] = []
    /// Reasons kept for the log; the count goes on.
    static let keptReasons = 3

    init(root: XMLTree.Element, maxCues: Int) {
        let children = root.elements.filter { TTMLConverter.ttNamespaces.contains($0.name.namespace) }
        parameters = TTMLTimeParameters(root: root, namespaces: TTMLConverter.parameterNamespaces)
        styleSheet = TTMLStyleSheet(head: children.first { $0.name.local == "head" })
        body = children.first { $0.name.local == "body" }
        self.maxCues = maxCues
    }

    mutating func makeDocument() throws(SubtitleError) -> WebVTTDocument {
        guard let body else { return WebVTTDocument() }
        let root = Context(begin: .zero, end: nil, style: TTMLTextStyle(), preservesSpace: false)
        if let context = timing(of: body, parent: root, syncBase: .zero) {
            try visitContainer(body, context: context)
        }
        var cues: [(index: Int, cue: WebVTTCue)] = []
        for candidate in candidates {
            // An indefinite end (nothing in the document ends the cue) stops at the document's last time.
            let end = candidate.end ?? latestFiniteTime
            guard candidate.start < end else {
                // WebVTT needs a finite end (W3C WebVTT §4.1); a cue starting at or after every finite time has none.
                note("<p> \"\(Self.excerpt(candidate.payload))\": indefinite end, nothing in the document ends it")
                continue
            }
            guard let start = candidate.start.milliseconds, let endMilliseconds = end.milliseconds else {
                note("<p> \"\(Self.excerpt(candidate.payload))\": a time past the Int64 millisecond range")
                continue
            }
            guard start < endMilliseconds else {
                note("<p> \"\(Self.excerpt(candidate.payload))\": shorter than a millisecond")
                continue
            }
            cues.append((cues.count, WebVTTCue(start: start, end: endMilliseconds, payload: candidate.payload)))
        }
        cues.sort { ($0.cue.start, $0.index) < ($1.cue.start, $1.index) }
        if cues.isEmpty, sawParagraphText, maxCues > 0 {
            throw .noTTMLCues(reason: droppedReasons.isEmpty ? "no paragraph has a time interval"
                : "\(droppedCount) left out: " + droppedReasons.joined(separator: "; "))
        }
        return WebVTTDocument(cues: cues.map(\.cue))
    }

    // MARK: Timing

    /// The element's interval (TTML1 §10.4), or nil when a time expression is unreadable or the element
    /// is never active inside its parent. `syncBase` is the parent's begin (par) or the previous
    /// sibling's end (seq); `end` counts from the same base as `begin`.
    private mutating func timing(of element: XMLTree.Element, parent: Context, syncBase: TTMLTime) -> Context? {
        var context = parent
        context.style = styleSheet.style(of: element, inherited: parent.style)
        switch element.attribute("space", namespace: XMLTree.xmlNamespace)?.trimmingWhitespace {
        case "preserve": context.preservesSpace = true
        case "default": context.preservesSpace = false
        default: break
        }
        var refusal: String?
        func time(_ name: String) -> TTMLTime?? {
            guard let text = element.attribute(name) else { return .some(nil) }
            switch TTMLTimeExpression.read(text, parameters: parameters) {
            case .success(let value): return .some(value)
            case .failure(let refused):
                refusal = "<\(element.name.local) \(name)=\"\(text.prefix(40))\">: \(refused.reason)"
                return nil
            }
        }
        guard let beginOffset = time("begin"), let endOffset = time("end"), let duration = time("dur") else {
            if let refusal { note(refusal) }
            return nil
        }
        guard let begin = syncBase.adding(beginOffset ?? .zero) else { return nil }
        var end = parent.end
        if let endOffset {
            guard let explicitEnd = syncBase.adding(endOffset) else { return nil }
            end = end.map { min($0, explicitEnd) } ?? explicitEnd
        }
        if let duration {
            guard let durationEnd = begin.adding(duration) else { return nil }
            end = end.map { min($0, durationEnd) } ?? durationEnd
        }
        context.begin = max(begin, parent.begin)
        context.end = end
        if let end {
            guard context.begin < end else { return nil }
            latestFiniteTime = max(latestFiniteTime, end)
        }
        latestFiniteTime = max(latestFiniteTime, context.begin)
        return context
    }

    private mutating func note(_ reason: String) {
        droppedCount += 1
        if droppedReasons.count < Self.keptReasons { droppedReasons.append(reason) }
    }

    private func isSequence(_ element: XMLTree.Element) -> Bool {
        element.attribute("timeContainer")?.trimmingWhitespace == "seq"
    }

    // MARK: Walking

    /// `<body>` or `<div>`: its `<div>` and `<p>` children; other content (metadata, foreign elements) is skipped.
    private mutating func visitContainer(_ element: XMLTree.Element, context: Context) throws(SubtitleError) {
        var syncBase = context.begin
        let sequential = isSequence(element)
        for child in element.elements where TTMLConverter.ttNamespaces.contains(child.name.namespace) {
            guard candidates.count < maxCues else { return }
            guard child.name.local == "div" || child.name.local == "p" else { continue }
            guard let childContext = timing(of: child, parent: context, syncBase: sequential ? syncBase : context.begin) else {
                if child.name.local == "p", Self.hasText(child) { sawParagraphText = true }
                continue
            }
            if child.name.local == "div" {
                try visitContainer(child, context: childContext)
            } else {
                try visitParagraph(child, context: childContext)
            }
            // §10.4: in a seq container the next child starts when this one ends; after an indefinite one, never.
            if sequential {
                guard let end = childContext.end else { return }
                syncBase = end
            }
        }
    }

    private mutating func visitParagraph(_ paragraph: XMLTree.Element, context: Context) throws(SubtitleError) {
        var pieces: [TTMLTextPiece] = []
        collectPieces(of: paragraph, context: context, into: &pieces)
        guard pieces.contains(where: \.hasVisibleText) else { return }
        sawParagraphText = true
        // The paragraph's visible text changes only where a piece starts or ends.
        var boundaries = [context.begin]
        for piece in pieces {
            boundaries.append(piece.begin)
            if let end = piece.end { boundaries.append(end) }
        }
        if let end = context.end { boundaries.append(end) }
        boundaries.sort()
        var unique: [TTMLTime] = []
        for time in boundaries where unique.last != time { unique.append(time) }
        // A paragraph that does not split renders once, in time linear in its size; one that splits
        // renders every piece's text once per interval.
        if unique.count > 2 {
            let weight = pieces.reduce(0) { total, piece in
                guard case .text(let text) = piece.kind else { return total + 1 }
                return total + 1 + text.utf8.count
            }
            let (work, overflow) = unique.count.multipliedReportingOverflow(by: weight)
            let (total, totalOverflow) = splittingWork.addingReportingOverflow(work)
            splittingWork = overflow || totalOverflow ? .max : total
        }
        guard splittingWork <= Self.maximumSplittingWork else {
            throw .ttmlTooLarge(reason: "paragraphs split by span timing into too many intervals")
        }
        let firstCandidate = candidates.count
        for (position, start) in unique.enumerated() {
            guard candidates.count < maxCues else { return }
            let end = position + 1 < unique.count ? unique[position + 1] : nil
            if end == nil, context.end != nil { break }
            let active = pieces.filter { $0.begin <= start && ($0.end.map { $0 > start } ?? true) }
            let payload = TTMLTextPiece.payload(of: active)
            guard !payload.isEmpty else { continue }
            // Adjacent intervals of this paragraph showing the same text are one cue.
            if candidates.count > firstCandidate, let last = candidates.last, last.end == start, last.payload == payload {
                candidates[candidates.count - 1].end = end
            } else {
                candidates.append(Candidate(start: start, end: end, payload: payload))
            }
        }
    }

    /// The text, line breaks and timed spans of a `<p>` or `<span>`, with their own intervals and styles.
    /// In a `timeContainer="seq"` `<p>` or `<span>` each child starts when the previous one ends (TTML1 §10.2.4);
    /// its own text and line breaks are anonymous spans of zero duration there (§10.4), never shown.
    private mutating func collectPieces(of element: XMLTree.Element, context: Context, into pieces: inout [TTMLTextPiece]) {
        let sequential = isSequence(element)
        var syncBase = context.begin
        for node in element.children {
            switch node {
            case .text where sequential:
                continue
            case .text(let text):
                pieces.append(TTMLTextPiece(kind: .text(text), style: context.style, preservesSpace: context.preservesSpace,
                                            begin: context.begin, end: context.end))
            case .element(let child):
                guard TTMLConverter.ttNamespaces.contains(child.name.namespace) else { continue }
                switch child.name.local {
                case "br" where sequential:
                    continue
                case "br":
                    pieces.append(TTMLTextPiece(kind: .lineBreak, style: context.style, preservesSpace: context.preservesSpace,
                                                begin: context.begin, end: context.end))
                case "span":
                    guard let spanContext = timing(of: child, parent: context, syncBase: sequential ? syncBase : context.begin) else {
                        continue
                    }
                    collectPieces(of: child, context: spanContext, into: &pieces)
                    // As in containers: after an indefinite child of a seq, no later sibling is ever active.
                    if sequential {
                        guard let end = spanContext.end else { return }
                        syncBase = end
                    }
                default:
                    continue
                }
            }
        }
    }

    /// The start of a cue's text, for a log line.
    private static func excerpt(_ payload: [String]) -> String {
        let text = payload.joined(separator: " ")
        return text.count > 30 ? String(text.prefix(30)) + "..." : text
    }

    private static func hasText(_ element: XMLTree.Element) -> Bool {
        element.children.contains { node in
            switch node {
            case .text(let text): return !text.trimmingWhitespace.isEmpty
            case .element(let child): return hasText(child)
            }
        }
    }
}
