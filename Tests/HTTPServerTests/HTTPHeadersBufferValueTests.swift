import HTTPWire
import Testing

/// A value added from a `GrowableByteBuffer` against the same value added as a String.
@Suite struct HTTPHeadersBufferValueTests {
    @Test(arguments: [
        "", "/", "http://h/vod/a/b.ts?x=1&y=%20", "https://ünï.example/p/€", String(repeating: "seg/", count: 300),
    ])
    func aValueFromABufferIsTheFieldAStringGives(value: String) {
        var buffer = GrowableByteBuffer(capacity: 16)
        buffer.append(utf8: value)
        var fromBuffer = HTTPHeaders()
        fromBuffer.add(.contentType, "text/plain")
        fromBuffer.add(.location, bytesOf: buffer)
        var fromString = HTTPHeaders()
        fromString.add(.contentType, "text/plain")
        fromString.add(.location, value)
        #expect(fromBuffer == fromString)
        #expect(fromBuffer[.location].map { Array($0.utf8) } == Array(value.utf8))
    }
}
