/// What a verified signed playback token says (docs/signing.md): until when it plays, which master,
/// with which tracks, and optionally which of them to list and which is the default.
struct SignedToken: Sendable, Equatable {
    /// The longest key id, in bytes: it travels in every URL.
    static let maximumKeyIDBytes = 64

    /// The configured key it was signed with.
    var keyID: String
    /// Unix seconds; the master plays while the clock is before it (`exp`).
    var expiry: Int64
    /// The master as a proxy request target (a mount path or the embedded form, with its query) (`master`).
    var master: String
    /// The tracks, checked as configured tracks are (`tracks`).
    var tracks: [TrackConfig]
    /// Which tracks to list, by language or id (`subtitles`, section 4 of the choices); nil lists all.
    var subtitles: [String]?
    /// Which track is DEFAULT, by language or id (`default`); nil leaves the tracks' own flags.
    var defaultTrack: String?
}

/// Why a signed URL was refused: answered 403 with `message` and counted by `reason`
/// (`hls_proxy_signed_refusals_total{reason=...}`).
struct SignedTokenRefusal: Error, Equatable, Sendable {
    /// The metric label.
    enum Reason: String, CaseIterable, Sendable {
        case notConfigured = "not_configured"
        case malformed
        case unknownKey = "unknown_key"
        case badSignature = "bad_signature"
        case expired
        case invalidTrack = "invalid_track"
        case invalidMaster = "invalid_master"
    }

    var reason: Reason
    /// One line, safe to echo (never a key, never unsanitised client bytes).
    var detail: String

    init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    /// The 403 body.
    var message: String { "signed URL refused: \(detail)" }
}
