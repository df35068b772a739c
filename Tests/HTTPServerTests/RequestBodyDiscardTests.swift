@testable import HTTPServer
import Glibc
import Testing

/// Request bodies are read past and discarded: a connection holds none of a large body while it
/// streams in, whatever its framing, and the request after it parses from the right byte.
@Suite struct RequestBodyDiscardTests {
    /// A loop that is never started, and one connection on it over a socketpair: the test writes to
    /// the peer end and drives the loop's read path by hand, looking at the connection between reads.
    final class LoopUnderTest {
        let loop: EventLoop
        let connection: Connection
        let peer: Int32

        init() throws {
            let (listener, _) = try Socket.makeListener(host: "127.0.0.1", port: 0)
            var configuration = HTTPServerConfiguration()
            configuration.maxBodyBytes = 4 << 20
            loop = EventLoop(try EventLoopThread(
                configuration: configuration, listener: listener, tally: ConnectionTally(),
                handler: { _ in HTTPResponse(status: .ok) },
                immediateHandler: { request in HTTPResponse(status: .ok, bytes: Array(request.path.utf8)) },
                onStopped: {}))
            var pair: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { throw HTTPServerError.system("socketpair", errno: errno) }
            _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
            // Room for a whole 64 KiB piece in one write, so the peer never blocks.
            var size: Int32 = 1 << 20
            setsockopt(pair[1], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            peer = pair[1]
            connection = Connection(socket: Socket(fd: pair[0]), id: 1, remoteAddress: "test")
            loop.connections.insert(connection)
        }

        deinit {
            loop.connections.close(connection)
            Glibc.close(peer)
            loop.release()
        }

        /// Writes `bytes` to the peer end, then lets the connection read until the socket is drained.
        func deliver(_ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.write(peer, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                sent += count
            }
            connection.readable = true
            loop.serve(connection)
        }

        /// Bytes the connection holds of what it was sent.
        var heldBytes: Int { connection.input.count }

        /// What the connection answered so far, read from the peer end.
        func answers() -> String {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            _ = fcntl(peer, F_SETFL, fcntl(peer, F_GETFL) | O_NONBLOCK)
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(peer, $0.baseAddress, $0.count) }
                guard count > 0 else { break }
                received += buffer[0..<count]
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    static let piece = [UInt8](repeating: 0x62, count: 64 * 1024)

    @Test func aContentLengthBodyOf4MiBStreamsInWithoutTheConnectionHoldingIt() throws {
        let test = try LoopUnderTest()
        test.deliver(Array("GET /first HTTP/1.1\r\nHost: t\r\nContent-Length: \(4 << 20)\r\n\r\n".utf8))
        var peak = test.heldBytes
        for _ in 0..<64 {
            test.deliver(Self.piece)
            peak = max(peak, test.heldBytes)
        }
        test.deliver(Array("GET /second HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        // Nothing of the body is kept: the loop's one read buffer takes it and lets it go.
        #expect(peak < 1024, "held \(peak) bytes of a 4 MiB body")
        let answers = test.answers()
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(answers)")
        #expect(answers.hasSuffix("/second"))
    }

    @Test func aChunkedBodyOf4MiBStreamsInWithoutTheConnectionHoldingIt() throws {
        let test = try LoopUnderTest()
        test.deliver(Array("GET /first HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        var peak = test.heldBytes
        let chunkHead = Array("\(String(Self.piece.count, radix: 16))\r\n".utf8)
        for _ in 0..<64 {
            test.deliver(chunkHead + Self.piece + [0x0D, 0x0A])
            peak = max(peak, test.heldBytes)
        }
        test.deliver(Array("0\r\n\r\nGET /second HTTP/1.1\r\nHost: t\r\n\r\n".utf8))
        #expect(peak < 1024, "held \(peak) bytes of a 4 MiB body")
        let answers = test.answers()
        #expect(answers.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(answers)")
        #expect(answers.hasSuffix("/second"))
    }

    @Test func aChunkedBodySplitAtEveryByteKeepsItsFraming() {
        var configuration = HTTPServerConfiguration()
        configuration.maxBodyBytes = 1 << 20
        let limits = RequestLimits(configuration)
        let body = Array("5;name=\"v\"\r\nhello\r\nA\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\nNEXT".utf8)
        let end = body.count - 4
        for split in 0...body.count {
            var discarder = ChunkedBodyDiscarder()
            var outcome = ChunkedBodyDiscarder.Progress.needMore
            var consumed = 0
            for part in [Array(body[..<split]), Array(body[split...])] where outcome == .needMore {
                outcome = discarder.discard(part.span, limits: limits)
                if outcome == .needMore { consumed += part.count }
            }
            guard case .complete(let used) = outcome else {
                Issue.record("split at \(split): \(outcome)")
                continue
            }
            #expect(consumed + used == end, "split at \(split)")
        }
    }

    @Test func aChunkedBodysOutcomeDoesNotDependOnWhereAReadSplitsIt() {
        let bodies = [
            "5;name=\"v\"\r\nhello\r\n0\r\nX-T: t\r\n\r\nNEXT", "5\r\nhel", "zz\r\n", "5\nhello\r\n0\r\n\r\n",
            "3\r\nhello\r\n", "ffffffffffffffffffff\r\n", "0\r\nX: a\nb\r\n\r\n", "0\r\n\r\n", "0\r\n \r\n\r\n",
        ].map { Array($0.utf8) }
        for body in bodies {
            let whole = HTTPRequestHeadParsing.chunkedBody(body)
            for split in 0...body.count {
                #expect(HTTPRequestHeadParsing.chunkedBody(body, split: split) == whole, "\(String(decoding: body, as: UTF8.self)) split at \(split)")
            }
        }
        #expect(HTTPRequestHeadParsing.chunkedBody(bodies[0]) == .complete(used: bodies[0].count - 4))
        #expect(HTTPRequestHeadParsing.chunkedBody(bodies[1]) == .incomplete)
        #expect(HTTPRequestHeadParsing.chunkedBody(bodies[5]) == .refused(.payloadTooLarge))
        #expect(HTTPRequestHeadParsing.chunkedBody(bodies[8]) == .refused(.badRequest))
    }
}
