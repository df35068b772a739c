/// Quoting for messages that show a value the operator or an origin supplied: problems in config
/// and track validation print values this way, so a stray quote or control character is visible.
public enum DisplayQuoting {
    /// The value in double quotes with quotes, backslashes and control characters escaped, safe to print.
    public static func quoted(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
