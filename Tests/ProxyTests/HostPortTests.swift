@testable import Proxy
import Testing

/// The one `host[:port]` split both the origin client's endpoint and the router's embedded URLs use.
@Suite struct HostPortTests {
    @Test(arguments: [
        ("example.com", "example.com", false, nil),
        ("example.com:8080", "example.com", false, "8080"),
        ("example.com:", "example.com", false, ""),
        ("[::1]", "::1", true, nil),
        ("[2001:db8::1]:443", "2001:db8::1", true, "443"),
        ("[::ffff:127.0.0.1]:80", "::ffff:127.0.0.1", true, "80"),
        ("[]", "", true, nil),
        // Unbracketed, the last colon starts the port: `::1` is host `:` and port `1`, which the
        // callers then refuse or connect to as written, never as the loopback literal.
        ("::1", ":", false, "1"),
    ] as [(String, String, Bool, String?)])
    func anAuthorityIsSplitIntoHostAndPortText(authority: String, host: String, bracketed: Bool, port: String?) throws {
        let parts = try #require(HostPort(Substring(authority)))
        #expect(parts.host == Substring(host))
        #expect(parts.isBracketed == bracketed)
        #expect(parts.portText.map(String.init) == port)
    }

    @Test(arguments: ["[::1", "[::1]x", "[::1]]:80", "[::1]8080", "[fe80::1%25eth0"])
    func aBracketThatIsNotClosedOrIsFollowedByAnythingButAPortIsRefused(authority: String) {
        #expect(HostPort(Substring(authority)) == nil)
    }

    @Test(arguments: [("1", 1), ("80", 80), ("08080", 8080), ("65535", 65_535)])
    func portsOfOneToFiveDigitsInRangeAreRead(text: String, port: Int) {
        #expect(HostPort.portNumber(Substring(text)) == port)
    }

    @Test(arguments: ["", "0", "00000", "65536", "99999", "123456", "+80", "-1", " 80", "8a", "٨٠", "0x50"])
    func portsThatAreNotPlainDecimalInRangeAreRefused(text: String) {
        #expect(HostPort.portNumber(Substring(text)) == nil)
    }
}
