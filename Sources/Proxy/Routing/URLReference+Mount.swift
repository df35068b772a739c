import Foundation

extension URLReference {
    /// `reference` resolved against `base` as a player reaching it through `mount` would: on a directory
    /// mount a path-absolute `/x` names the mount's root (a directory has no host; the proxy serves such
    /// a playlist with `/MOUNT/x`), elsewhere RFC 3986 §5 as `resolve(_:against:)`.
    static func resolve(_ reference: String, against base: String, mount: Mount?) -> String? {
        if case .directory(let root) = mount?.origin, form(of: reference) == .pathAbsolute {
            let rootURL = URL(fileURLWithPath: root, isDirectory: true).absoluteString
            return resolve(String(reference.drop { $0 == " " }.dropFirst()), against: rootURL)
        }
        return resolve(reference, against: base)
    }
}
