/// Reads typed values out of a parsed config file, collecting every problem with its field path
/// instead of stopping at the first. The section decoders (ProxyConfigDecoder and those it calls)
/// say what each field means; they share one reader, passed inout, for its problems and environment.
struct ConfigReader {
    /// Where `${VAR}` references in string values are looked up.
    let environment: [String: String]
    /// Problems so far, in the order found.
    private(set) var problems: [(path: ConfigPath, message: String)] = []

    init(environment: [String: String]) {
        self.environment = environment
    }

    mutating func report(_ path: ConfigPath, _ message: String) {
        problems.append((path, message))
    }

    /// Whether a problem was already reported for exactly this path.
    func hasProblem(at path: ConfigPath) -> Bool {
        problems.contains { $0.path == path }
    }

    /// The error for everything reported, or nil when nothing was.
    var error: ConfigError? {
        problems.isEmpty ? nil : ConfigError(problems: problems.map { "\($0.path): \($0.message)" })
    }

    // MARK: Containers

    /// The members of an object; every key outside `keys` is reported, so typos do not pass silently.
    mutating func object(_ value: ConfigValue?, at path: ConfigPath, keys: Set<String>) -> [String: ConfigValue]? {
        guard let members = anyObject(value, at: path) else { return nil }
        for key in members.keys.sorted() where !keys.contains(key) {
            report(path.key(key), "unknown key (expected one of \(keys.sorted().joined(separator: ", ")))")
        }
        return members
    }

    /// The members of an object whose keys are names chosen by the user (mounts, headers).
    mutating func anyObject(_ value: ConfigValue?, at path: ConfigPath) -> [String: ConfigValue]? {
        switch value {
        case nil, .null?: return nil
        case .object(let members)?: return members
        case let other?:
            report(path, "expected an object, got \(other.summary)")
            return nil
        }
    }

    mutating func array(_ value: ConfigValue?, at path: ConfigPath) -> [ConfigValue]? {
        switch value {
        case nil, .null?: return nil
        case .array(let elements)?: return elements
        case let other?:
            report(path, "expected an array, got \(other.summary)")
            return nil
        }
    }

    // MARK: Scalars

    /// A string with `${VAR}` references expanded; CR, LF and NUL are refused in every string so that no
    /// config value can ever add a header line or a playlist line.
    mutating func string(_ value: ConfigValue?, at path: ConfigPath) -> String? {
        switch value {
        case nil, .null?: return nil
        case .string(let raw)?:
            guard let expanded = expand(raw, at: path) else { return nil }
            if expanded.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                report(path, "contains a line break or NUL character, which no config value may carry")
                return nil
            }
            return expanded
        case let other?:
            report(path, "expected a string, got \(other.summary)")
            return nil
        }
    }

    mutating func requiredString(_ value: ConfigValue?, at path: ConfigPath) -> String? {
        if value == nil || value == .null {
            report(path, "is required")
            return nil
        }
        return string(value, at: path)
    }

    /// A string array; a missing or null value is nil.
    mutating func strings(_ value: ConfigValue?, at path: ConfigPath) -> [String]? {
        guard let elements = array(value, at: path) else { return nil }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if let text = string(element, at: path.index(index)) { result.append(text) }
        }
        return result
    }

    mutating func bool(_ value: ConfigValue?, at path: ConfigPath) -> Bool? {
        switch scalar(value, at: path) {
        case nil: return nil
        case .literal(.bool(let flag))?: return flag
        case .expanded("true")?: return true
        case .expanded("false")?: return false
        case let other?:
            report(path, "expected true or false, got \(other.summary)")
            return nil
        }
    }

    mutating func integer(_ value: ConfigValue?, at path: ConfigPath) -> Int64? {
        switch scalar(value, at: path) {
        case nil: return nil
        case .literal(.integer(let number))?: return number
        case .literal(.number(let number))? where Int64(exactly: number) != nil: return Int64(exactly: number)
        case .expanded(let text)? where Int64(text) != nil: return Int64(text)
        case let other?:
            report(path, "expected an integer, got \(other.summary)")
            return nil
        }
    }

    /// A number that must be finite (JSON cannot spell infinity, but 1e999 overflows to it).
    mutating func number(_ value: ConfigValue?, at path: ConfigPath) -> Double? {
        let number: Double
        switch scalar(value, at: path) {
        case nil: return nil
        case .literal(.integer(let integer))?: number = Double(integer)
        case .literal(.number(let double))?: number = double
        case .expanded(let text)? where Double(text) != nil: number = Double(text) ?? 0
        case let other?:
            report(path, "expected a number, got \(other.summary)")
            return nil
        }
        guard number.isFinite else {
            report(path, "must be a finite number")
            return nil
        }
        return number
    }

    /// A number greater than zero; zero or less is reported.
    mutating func positiveNumber(_ value: ConfigValue?, at path: ConfigPath) -> Double? {
        guard let number = number(value, at: path) else { return nil }
        guard number > 0 else {
            report(path, "must be greater than 0, got \(Self.formatted(number))")
            return nil
        }
        return number
    }

    /// One of a fixed set of words, e.g. `"redirect"` or `"proxy"`.
    mutating func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: ConfigValue?, at path: ConfigPath, as _: Choice.Type = Choice.self
    ) -> Choice? where Choice.RawValue == String {
        switch value {
        case nil, .null?: return nil
        case .string?: break
        case let other?:
            report(path, "expected one of \(Self.names(of: Choice.self)), got \(other.summary)")
            return nil
        }
        guard let text = string(value, at: path) else { return nil }
        if let choice = Choice(rawValue: text) { return choice }
        report(path, "expected one of \(Self.names(of: Choice.self)), got \(Self.quoted(text))")
        return nil
    }

    /// Numbers and booleans may come from the environment: `"port": "${PORT}"` is expanded, then read.
    /// A literal string stays a string, so `"port": "8080"` is still a type error.
    private mutating func scalar(_ value: ConfigValue?, at path: ConfigPath) -> ScalarSource? {
        switch value {
        case nil, .null?: return nil
        case .string(let raw)? where raw.contains("${"):
            guard let expanded = expand(raw, at: path) else { return nil }
            return .expanded(expanded)
        case let other?: return .literal(other)
        }
    }

    private enum ScalarSource {
        case literal(ConfigValue)
        case expanded(String)

        var summary: String {
            switch self {
            case .literal(let value): value.summary
            case .expanded(let text): "\(ConfigReader.quoted(text)) (after expansion)"
            }
        }
    }

    private static func names<Choice: RawRepresentable & CaseIterable>(of _: Choice.Type) -> String
    where Choice.RawValue == String {
        Choice.allCases.map(\.rawValue).joined(separator: ", ")
    }
}
