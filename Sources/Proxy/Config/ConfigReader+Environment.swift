extension ConfigReader {
    /// Replaces each `${NAME}` with the environment's value, so secrets (tokens, keys) stay out of the file.
    ///
    /// `$${` stands for a literal `${`; any other `$` is kept as written. Expansion is a single pass: a value
    /// that itself contains `${` is not expanded again. Returns nil after reporting when a reference is
    /// malformed or names an unset variable.
    mutating func expand(_ text: String, at path: ConfigPath) -> String? {
        guard text.contains("$") else { return text }
        var result = ""
        var failed = false
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let afterDollar = rest[dollar...].dropFirst()
            if afterDollar.hasPrefix("${") {
                result += "${"
                rest = afterDollar.dropFirst(2)
            } else if afterDollar.hasPrefix("{") {
                let nameStart = afterDollar.dropFirst()
                guard let close = nameStart.firstIndex(of: "}") else {
                    report(path, "unterminated ${ (write $${ for a literal ${)")
                    return nil
                }
                let name = String(nameStart[..<close])
                if !Self.isVariableName(name) {
                    report(path, "${\(name)} is not a valid environment variable name")
                    failed = true
                } else if let value = environment[name] {
                    result += value
                } else {
                    report(path, "environment variable \(name) is not set")
                    failed = true
                }
                rest = nameStart[close...].dropFirst()
            } else {
                result += "$"
                rest = afterDollar
            }
        }
        result += rest
        return failed ? nil : result
    }

    /// POSIX shell variable names: a letter or underscore, then letters, digits and underscores.
    static func isVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !isASCIIDigit(first) else { return false }
        return name.utf8.allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: "_") }
    }
}
