/// A strict JSON reader (RFC 8259) for config files: it names the line and column of every syntax
/// error, a truncated file included, and refuses a key given twice in one object by its field path
/// (JSONDecoder silently keeps one of the two, so a second `"listen"` would quietly win or lose).
struct ConfigJSONParser {
    private let bytes: [UInt8]
    private var position = 0
    /// Keys given twice, with where each copy starts.
    private var duplicates: [String] = []

    /// Deeper nesting is refused rather than recursed into (no config needs more than a handful).
    static let maxDepth = 100

    private struct SyntaxError: Error {
        var message: String
        var offset: Int
    }

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The document, or every problem: one syntax error with its line and column, or each duplicate key.
    static func parse(_ bytes: [UInt8]) -> Result<ConfigValue, ConfigError> {
        var parser = ConfigJSONParser(bytes)
        // A UTF-8 byte order mark, as some editors write, is allowed before the document (RFC 8259 §8.1).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
        do throws(SyntaxError) {
            parser.skipWhitespace()
            let value = try parser.value(at: .root, depth: 0)
            parser.skipWhitespace()
            if parser.position < bytes.count {
                throw SyntaxError(message: "unexpected \(parser.describeByte()) after the document", offset: parser.position)
            }
            if !parser.duplicates.isEmpty { return .failure(ConfigError(problems: parser.duplicates)) }
            return .success(value)
        } catch {
            return .failure(ConfigError(problems: ["(file): not valid JSON: \(error.message) (\(parser.location(of: error.offset)))"]))
        }
    }

    // MARK: Values

    private mutating func value(at path: ConfigPath, depth: Int) throws(SyntaxError) -> ConfigValue {
        guard position < bytes.count else { throw SyntaxError(message: "the file ends where a value should be", offset: position) }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(at: path, depth: depth + 1)
        case UInt8(ascii: "["): return try array(at: path, depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw SyntaxError(message: "unexpected \(describeByte()) where a value should be", offset: position)
        }
    }

    private mutating func object(at path: ConfigPath, depth: Int) throws(SyntaxError) -> ConfigValue {
        let opened = position
        guard depth <= Self.maxDepth else { throw SyntaxError(message: "nested deeper than \(Self.maxDepth) levels", offset: position) }
        position += 1
        var members: [String: ConfigValue] = [:]
        var firstSeen: [String: Int] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { position += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw unclosed("an object", opened) }
            guard bytes[position] == UInt8(ascii: "\"") else {
                throw SyntaxError(message: "expected a quoted key, found \(describeByte())", offset: position)
            }
            let keyOffset = position
            let key = try string()
            skipWhitespace()
            guard position < bytes.count else { throw unclosed("an object", opened) }
            guard bytes[position] == UInt8(ascii: ":") else {
                throw SyntaxError(message: "expected ':' after the key, found \(describeByte())", offset: position)
            }
            position += 1
            skipWhitespace()
            let member = try value(at: path.key(key), depth: depth)
            if let first = firstSeen[key] {
                duplicates.append("\(path.key(key)): duplicate key (first at \(location(of: first)); again at \(location(of: keyOffset)))")
            } else {
                firstSeen[key] = keyOffset
                members[key] = member
            }
            skipWhitespace()
            guard position < bytes.count else { throw unclosed("an object", opened) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return .object(members)
            default: throw SyntaxError(message: "expected ',' or '}' after an object member, found \(describeByte())", offset: position)
            }
        }
    }

    private mutating func array(at path: ConfigPath, depth: Int) throws(SyntaxError) -> ConfigValue {
        let opened = position
        guard depth <= Self.maxDepth else { throw SyntaxError(message: "nested deeper than \(Self.maxDepth) levels", offset: position) }
        position += 1
        var elements: [ConfigValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { position += 1; return .array(elements) }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw unclosed("an array", opened) }
            elements.append(try value(at: path.index(elements.count), depth: depth))
            skipWhitespace()
            guard position < bytes.count else { throw unclosed("an array", opened) }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return .array(elements)
            default: throw SyntaxError(message: "expected ',' or ']' after an array element, found \(describeByte())", offset: position)
            }
        }
    }

    private func unclosed(_ what: String, _ opened: Int) -> SyntaxError {
        SyntaxError(message: "the file ends inside \(what) opened at \(location(of: opened))", offset: bytes.count)
    }

    // MARK: Scalars

    private mutating func literal(_ word: StaticString) throws(SyntaxError) {
        let text = word.withUTF8Buffer { Array($0) }
        guard bytes.count - position >= text.count, bytes[position..<(position + text.count)].elementsEqual(text) else {
            throw SyntaxError(message: "unexpected \(describeByte()) where a value should be", offset: position)
        }
        position += text.count
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; integers that fit stay exact.
    private mutating func number() throws(SyntaxError) -> ConfigValue {
        let start = position
        var isInteger = true
        if peek(UInt8(ascii: "-")) { position += 1 }
        if peek(UInt8(ascii: "0")) {
            position += 1
        } else if !digits() {
            throw SyntaxError(message: "a number needs a digit here, found \(describeByte())", offset: position)
        }
        if peek(UInt8(ascii: ".")) {
            isInteger = false
            position += 1
            guard digits() else { throw SyntaxError(message: "a number needs a digit after '.', found \(describeByte())", offset: position) }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            isInteger = false
            position += 1
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { position += 1 }
            guard digits() else { throw SyntaxError(message: "a number needs a digit in its exponent, found \(describeByte())", offset: position) }
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { throw SyntaxError(message: "\(text) is not a number", offset: start) }
        return .number(double)
    }

    /// Skips `[0-9]+`; false when there was not even one digit.
    private mutating func digits() -> Bool {
        let start = position
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
        return position > start
    }

    /// A quoted string (at its opening quote): escapes decoded, control characters and bad UTF-8 refused.
    private mutating func string() throws(SyntaxError) -> String {
        let opened = position
        position += 1
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let string = String(validating: text, as: UTF8.self) else {
                    throw SyntaxError(message: "the string is not valid UTF-8", offset: opened)
                }
                return string
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case ..<0x20:
                throw SyntaxError(message: "a control character (0x\(String(byte, radix: 16))) inside a string must be escaped", offset: position)
            default:
                text.append(byte)
                position += 1
            }
        }
        throw unclosed("a string", opened)
    }

    private mutating func escape(into text: inout [UInt8]) throws(SyntaxError) {
        let start = position
        position += 1
        guard position < bytes.count else { throw unclosed("a string", start) }
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
        ]
        if let replacement = simple[bytes[position]] {
            text.append(replacement)
            position += 1
            return
        }
        guard bytes[position] == UInt8(ascii: "u") else {
            let byte = bytes[position]
            let shown = byte > 0x20 && byte < 0x7F ? "'\\\(Character(Unicode.Scalar(byte)))'" : "a backslash before \(describeByte())"
            throw SyntaxError(message: "\(shown) is not a JSON escape", offset: start)
        }
        position += 1
        var scalar = try hexQuad(escapeAt: start)
        if (0xD800...0xDBFF).contains(scalar) {
            // RFC 8259 §7: a character outside the BMP is a high and a low surrogate, each escaped.
            guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw SyntaxError(message: "\\u escape of a lone high surrogate", offset: start)
            }
            position += 2
            let low = try hexQuad(escapeAt: start)
            guard (0xDC00...0xDFFF).contains(low) else { throw SyntaxError(message: "\\u escape of a lone high surrogate", offset: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw SyntaxError(message: "\\u escape of a lone low surrogate", offset: start)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw SyntaxError(message: "\\u escape of no character", offset: start) }
        text.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hexQuad(escapeAt start: Int) throws(SyntaxError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw unclosed("a string", start) }
        var value: UInt32 = 0
        for byte in bytes[position..<(position + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw SyntaxError(message: "\\u needs four hex digits", offset: start)
            }
            value = value << 4 | UInt32(digit)
        }
        position += 4
        return value
    }

    // MARK: Positions

    private mutating func skipWhitespace() {
        while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }

    private func peek(_ byte: UInt8) -> Bool {
        position < bytes.count && bytes[position] == byte
    }

    /// The byte at the current position as a message shows it: `'}'`, `byte 0x00`, or the end of the file.
    private func describeByte() -> String {
        guard position < bytes.count else { return "the end of the file" }
        let byte = bytes[position]
        return byte > 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// `line L, column C`, both from 1; columns count characters (UTF-8 continuation bytes are skipped).
    private func location(of offset: Int) -> String {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }
}
