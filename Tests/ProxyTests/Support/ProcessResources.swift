import Foundation

/// This process's open descriptors, resident memory and TCP connections, read from /proc.
enum ProcessResources {
    static var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
    }

    /// Resident set size in bytes (/proc/self/statm's second field, in pages).
    static var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return -1 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return -1 }
        return pages * 4096
    }

    /// TCP connections (not listening, not TIME_WAIT) with `port` at either end, from /proc/net/tcp{,6}.
    /// Unlike a descriptor count, this is not disturbed by other tests running at the same time.
    static func connections(onPort port: Int) -> Int {
        let hexPort = String(format: ":%04X", port)
        var count = 0
        for file in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 3 else { continue }
                // State 0A is LISTEN, 06 is TIME_WAIT: neither holds a descriptor.
                if fields[3] == "0A" || fields[3] == "06" { continue }
                if fields[1].hasSuffix(hexPort) || fields[2].hasSuffix(hexPort) { count += 1 }
            }
        }
        return count
    }
}
