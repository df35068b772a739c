import Foundation

/// A JSON value from a config file, kept loose so that type errors can be reported by field path.
enum ConfigValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ConfigValue])
    case object([String: ConfigValue])

    /// Parses JSON text; a syntax error is one problem naming the line and column where parsing stopped.
    static func parse(_ bytes: [UInt8]) -> Result<ConfigValue, ConfigError> {
        do {
            return .success(try JSONDecoder().decode(ConfigValue.self, from: Data(bytes)))
        } catch {
            return .failure(ConfigError(problems: ["(file): not valid JSON: \(syntaxProblem(in: bytes))"]))
        }
    }

    /// JSONDecoder says only that the data is not JSON; JSONSerialization says where ("around character 11").
    private static func syntaxProblem(in bytes: [UInt8]) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return "unreadable document"
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            guard let range = detail.range(of: "around character "),
                let offset = Int(detail[range.upperBound...].prefix { $0.isASCII && $0.isNumber }),
                offset <= bytes.count
            else { return detail }
            let before = bytes.prefix(offset)
            let line = before.count { $0 == UInt8(ascii: "\n") } + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "\(detail.hasSuffix(".") ? String(detail.dropLast()) : detail) (line \(line), column \(column))"
        }
    }

    /// How a value is named in "expected ..., got ..." messages; strings are quoted and escaped.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): ConfigReader.formatted(value)
        case .string(let value): ConfigReader.quoted(value)
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension ConfigValue: Decodable {
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ConfigValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ConfigValue].self))
        }
    }
}
