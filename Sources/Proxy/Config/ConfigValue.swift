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

    /// Parses JSON text; the message of a syntax error is JSONDecoder's, which names the line and column.
    static func parse(_ bytes: [UInt8]) -> Result<ConfigValue, ConfigError> {
        do {
            return .success(try JSONDecoder().decode(ConfigValue.self, from: Data(bytes)))
        } catch let DecodingError.dataCorrupted(context) {
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return .failure(ConfigError(problems: ["(file): not valid JSON: \(context.debugDescription)\(underlying)"]))
        } catch {
            return .failure(ConfigError(problems: ["(file): not valid JSON: \(error)"]))
        }
    }

    /// How a value is named in "expected ..., got ..." messages; strings are quoted and escaped.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .number(let value): String(value)
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
