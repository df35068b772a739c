/// A JSON value from a config file, kept loose so that type errors can be reported by field path.
enum ConfigValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([ConfigValue])
    case object([String: ConfigValue])

    /// Parses JSON text strictly (`ConfigJSONParser`): a syntax error is one problem naming the line and
    /// column where parsing stopped, truncation included, and a key given twice in one object is refused.
    static func parse(_ bytes: [UInt8]) -> Result<ConfigValue, ConfigError> {
        ConfigJSONParser.parse(bytes)
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
