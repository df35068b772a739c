import Foundation

/// Why a one-shot exchange failed.
public enum TestClientError: Error { case connect(Int32), io(String), malformed(String) }

/// A minimal HTTP/1.1 client over a raw socket: one request per connection, so what the proxy sends
/// (including redirects) is seen exactly. Blocking I/O runs on its own thread, off the task pool.
public enum TestClient {
    /// A request on a new connection (with `Connection: close`) and the response read until the close.
    public static func get(
        port: Int, _ target: String, method: String = "GET", headers: [(String, String)] = []
    ) async throws -> RawResponse {
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

    /// The response at the start of `raw` (everything read from one connection): its head parsed, its
    /// body cut to Content-Length when there is one (none for HEAD).
    public static func parse(_ raw: [UInt8], method: String) throws -> RawResponse {
        guard let headEnd = raw.firstRange(of: [13, 10, 13, 10]) else { throw TestClientError.malformed("no header end") }
        let head = String(decoding: raw[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let words = statusLine.split(separator: " ")
        guard words.count >= 2, let status = Int(words[1]) else { throw TestClientError.malformed(head) }
        var headers: [(String, String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var response = RawResponse(statusLine: statusLine, status: status, headers: headers, body: Array(raw[headEnd.upperBound...]))
        if let length = response.header("Content-Length").flatMap(Int.init), method != "HEAD", response.body.count > length {
            response.body = Array(response.body.prefix(length))
        }
        return response
    }
}
