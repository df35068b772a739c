import HTTPServer

/// The route-to-responder table: every responder the handler dispatches to, built once from the
/// context, and the one place a planned request meets its responder. A new responder is a stored
/// property, a line in `init`, a `Work` case and its line in the switch below (the compiler checks
/// that the last two go together). A class, so an async dispatch hands on one reference rather than a
/// copy of every responder (each holds the config).
final class Responders: Sendable {
    let masters: MasterResponder
    let subtitles: SubtitleResponder
    let passThrough: PassThroughResponder
    let files: FileResponder
    let signed: SignedResponder

    init(context: ResponderContext) {
        masters = MasterResponder(context: context)
        subtitles = SubtitleResponder(context: context)
        passThrough = PassThroughResponder(context: context)
        files = FileResponder(context: context)
        signed = SignedResponder(context: context, masters: masters, subtitles: subtitles)
    }

    /// A planned request that a responder answers, with what that responder is handed.
    enum Work: Sendable {
        case master(ClaimedMaster)
        case subtitle(SubtitleURL)
        case signed(SignedURL)
        case passThrough(OriginTarget)
        case file(FileTarget)
    }

    /// The answer with no I/O when the work's responder has one (on the loop thread), else nil.
    func immediate(_ work: Work, request: HTTPRequest) -> RouteResponse? {
        switch work {
        case .master(let claim): masters.immediate(claim, request: request)
        case .subtitle(let url): subtitles.immediate(url, request: request)
        case .signed(let url): signed.immediate(url, request: request)
        case .passThrough(let target): passThrough.immediate(target, request: request)
        case .file(let file): files.immediate(file, request: request)
        }
    }

    /// The full answer from the work's responder.
    func serve(_ work: Work, request: HTTPRequest) async throws -> RouteResponse {
        switch work {
        case .master(let claim): try await masters.serve(claim, request: request)
        case .subtitle(let url): try await subtitles.serve(url, request: request)
        case .signed(let url): try await signed.serve(url, request: request)
        case .passThrough(let target): try await passThrough.serve(target, request: request)
        case .file(let file): try await files.serve(file, request: request)
        }
    }
}
