import Foundation

/// The `cors` section: the origins answered with Access-Control-Allow-Origin.
enum CORSDecoder {
    static func cors(_ value: ConfigValue?, at path: ConfigPath, in reader: inout ConfigReader) -> ProxyConfig.CORS {
        var cors = ProxyConfig.CORS()
        guard let members = reader.object(value, at: path, keys: ["allow_origins"]),
            let elements = reader.array(members["allow_origins"], at: path.key("allow_origins"))
        else { return cors }
        cors.allowOrigins = []
        for (index, element) in elements.enumerated() {
            let elementPath = path.key("allow_origins").index(index)
            guard let origin = reader.string(element, at: elementPath) else { continue }
            // Fetch §3.2.5: an Origin is a serialized scheme://host[:port], never with a path.
            if origin == "*" || ConfigReader.isSerializedOrigin(origin) {
                cors.allowOrigins.append(origin)
            } else {
                reader.report(elementPath, "\(ConfigReader.quoted(origin)) is neither \"*\" nor http(s)://host[:port]")
            }
        }
        return cors
    }
}
