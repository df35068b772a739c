import HTTPClient
import HTTPServer
import HTTPWire

/// Makes text from a client safe to echo in a one-line error body.
enum Sanitized {
    static func text<S: StringProtocol>(_ value: S, limit: Int = 80) -> String {
        let cleaned = value.unicodeScalars.prefix(limit).map { scalar -> Character in
            scalar.value < 0x20 || scalar.value == 0x7F ? "?" : Character(scalar)
        }
        return String(cleaned)
    }
}
