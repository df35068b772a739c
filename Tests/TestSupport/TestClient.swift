import Foundation

/// A response as the test client saw it on the wire.
public struct WireResponse: Sendable {
    public var status: Int
    /// Header names lowercased; repeated fields joined with ", ".
    public var headers: [String: String]
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

public enum TestClientError: Error { case connect(Int32), io(String), malformed(String) }

/// A minimal HTTP/1.1 client over a raw socket: one request per connection, so what the proxy sends
/// (including redirects) is seen exactly. Blocking I/O runs on its own thread, off the task pool.
public enum TestClient {
    public static func get(
        port: Int, _ target: String, method: String = "GET", headers: [(String, String)] = []
    ) async throws -> WireResponse {
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        request += "\r\n"
        let raw = try await exchange(port: port, bytes: Array(request.utf8))
        return try parse(raw, method: method)
    }

    /// Sends bytes, reads until the server closes (or 30 s pass: generous, since a loaded machine running
    /// the parallel suite can stall a request for seconds), returns everything read.
    public static func exchange(port: Int, bytes: [UInt8]) async throws -> [UInt8] {
        try await onThread { try blockingExchange(port: port, bytes: bytes) }
    }

    private static func blockingExchange(port: Int, bytes: [UInt8]) throws -> [UInt8] {
        let client = try RawSocketClient(port: port, timeout: .seconds(30))
        do {
            try client.send(bytes)
        } catch {
            throw TestClientError.io("\(error)")
        }
        return client.readUntilClose().bytes
    }

    public static func parse(_ raw: [UInt8], method: String) throws -> WireResponse {
        guard let headEnd = raw.firstRange(of: [13, 10, 13, 10]) else { throw TestClientError.malformed("no header end") }
        let head = String(decoding: raw[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestClientError.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        var body = Array(raw[headEnd.upperBound...])
        if let length = headers["content-length"].flatMap(Int.init), method != "HEAD", body.count > length {
            body = Array(body.prefix(length))
        }
        return WireResponse(status: status, headers: headers, body: body)
    }
}
