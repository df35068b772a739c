/// Everything wrong with a config file, each problem as `field.path: message`.
public struct ConfigError: Error, CustomStringConvertible {
    /// One line per problem, prefixed by the path of the field at fault.
    public var problems: [String]

    /// Makes an error from its problem lines.
    public init(problems: [String]) {
        self.problems = problems
    }

    /// A header line followed by the problems, one per line.
    public var description: String {
        let noun = problems.count == 1 ? "problem" : "problems"
        return (["invalid configuration (\(problems.count) \(noun)):"] + problems.map { "  " + $0 }).joined(separator: "\n")
    }
}
