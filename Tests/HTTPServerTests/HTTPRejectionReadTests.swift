@testable import HTTPServer
import HTTPWire
import Testing

/// What a refused request's log line and rejection handler learn from the bytes that arrived: the
/// request line and Origin, only from lines that arrived whole.
@Suite struct HTTPRejectionReadTests {
    private func read(_ head: String) -> HTTPRejection {
        var rejection = HTTPRejection(status: .badRequest, reason: "test")
        rejection.read(head: Array(head.utf8)[...])
        return rejection
    }

    @Test func aWholeHeadGivesItsMethodTargetAndOrigin() {
        let rejection = read("GET /a?b HTTP/1.1\r\nHost: x\r\nOrigin:  https://p.example \t\r\n\r\n")
        #expect(rejection.method == "GET")
        #expect(rejection.target == "/a?b")
        #expect(rejection.origin == "https://p.example")
    }

    @Test func anOriginNamedInAnyCaseAndEndedByABareLineFeedIsRead() {
        let rejection = read("GET / HTTP/1.1\nORIGIN:https://p.example\n\n")
        #expect(rejection.origin == "https://p.example")
    }

    @Test func aRequestLineThatHasNotArrivedWholeGivesNothing() {
        let rejection = read("GET /partial HTTP/1.")
        #expect(rejection.method.isEmpty)
        #expect(rejection.target.isEmpty)
        #expect(rejection.origin == nil)
    }

    @Test func anOriginLineCutOffBeforeItsLineFeedIsNotRead() {
        let rejection = read("GET / HTTP/1.1\r\nOrigin: https://p.exa")
        #expect(rejection.method == "GET")
        #expect(rejection.origin == nil)
    }

    @Test func fieldsAfterTheEndOfTheHeadAreNotRead() {
        let rejection = read("GET / HTTP/1.1\r\n\r\nOrigin: https://body.example\r\n")
        #expect(rejection.origin == nil)
    }

    @Test(arguments: ["G\u{0}T / HTTP/1.1\r\n", " / HTTP/1.1\r\n", "GET /only-two-parts\r\n", "\r\n"])
    func aRequestLineOfAnotherShapeGivesNoMethodOrTarget(_ head: String) {
        let rejection = read(head)
        #expect(rejection.method.isEmpty)
        #expect(rejection.target.isEmpty)
    }

    @Test(arguments: ["Origins: x\r\n", "Origi: x\r\n", "Origin\r\n", "X-Origin: x\r\n", "Orig\u{E9}n: x\r\n"])
    func aFieldOnlyLikeOriginIsNotTakenForIt(_ line: String) {
        let rejection = read("GET / HTTP/1.1\r\n" + line + "\r\n")
        #expect(rejection.method == "GET")
        #expect(rejection.origin == nil)
    }

    @Test func aSliceThatDoesNotStartAtZeroIsReadFromItsOwnStart() {
        let bytes = Array("XXGET /s HTTP/1.1\r\nOrigin: o\r\n\r\n".utf8)
        var rejection = HTTPRejection(status: .badRequest, reason: "test")
        rejection.read(head: bytes[2...])
        #expect(rejection.method == "GET")
        #expect(rejection.target == "/s")
        #expect(rejection.origin == "o")
    }
}
