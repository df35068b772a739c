/// Where a value sits in the config file, printed the way problems name it: `subtitles[0].tracks[1].language`.
struct ConfigPath: Sendable, Hashable, CustomStringConvertible {
    private enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    /// The whole document.
    static let root = ConfigPath()

    /// The member `key` of the object at this path.
    func key(_ key: String) -> ConfigPath {
        var path = self
        path.components.append(.key(key))
        return path
    }

    /// The element `index` of the array at this path.
    func index(_ index: Int) -> ConfigPath {
        var path = self
        path.components.append(.index(index))
        return path
    }

    var description: String {
        guard !components.isEmpty else { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where !key.isEmpty && key.utf8.allSatisfy(ConfigReader.isPlainKeyByte):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                // Keys that could be misread (dots, spaces, control characters) are quoted and escaped.
                text += "[\(ConfigReader.quoted(key))]"
            }
        }
        return text
    }
}
