import Foundation
import Testing

@testable import FruitsiteServe

/// Requests `serve` refuses over real sockets: what a proxy in front could read otherwise, and
/// what a page on another site could read through a name of its own.
extension ServerTests {
    /// `Content-Length: 0` then `44`: a server reading the first takes the body for a second
    /// request, which a proxy reading the last passed on as a body (request smuggling).
    @Test func refusesALengthInDoubt() throws {
        let served = try Served()
        let smuggled = "GET /fruits/apple/ HTTP/1.1\r\nHost: localhost\r\n\r\n"
        for lengths in [
            "Content-Length: 0\r\nContent-Length: \(smuggled.utf8.count)",
            "Content-Length: 0, \(smuggled.utf8.count)",
            "Content-Length: 0\r\nTransfer-Encoding: chunked",
        ] {
            let connection = try Connection(port: served.server.port)
            try connection.send(
                "GET / HTTP/1.1\r\nHost: localhost\r\n\(lengths)\r\n\r\n" + smuggled)
            let text = String(decoding: try connection.readAll(), as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(lengths)")
            #expect(text.components(separatedBy: "HTTP/1.1 ").count == 2, "\(lengths)")
        }
        // The same length twice is one length (RFC 9112, 6.3).
        #expect(
            try served.get("/", headers: ["Content-Length: 0", "Content-Length: 0"]).status == 200)
    }

    /// A bare CR, a NUL or another control character in a header (RFC 9110, 5.5).
    @Test func refusesControlCharactersInAHeader() throws {
        let served = try Served()
        for header in ["X-A: b\rc", "X-A: b\u{0}c", "X-A: b\u{1B}c", "X-A: b\u{7F}", "X\rA: b"] {
            #expect(
                try served.get("/", headers: [header]).status == 400, "\(header.debugDescription)")
        }
        #expect(try served.get("/", headers: ["X-A: b\tc"]).status == 200)
    }

    /// docs/reference/serve.md: an encoded slash or backslash in any case gets 400, never a
    /// path of segments.
    @Test func refusesAnEncodedSlash() throws {
        let served = try Served()
        for target in ["/fruits%2fapple/", "/fruits%2Fapple/", "/fruits%5capple/", "/%2F"] {
            #expect(try served.get(target).status == 400, "\(target)")
        }
        #expect(try served.get("/fruits/apple/").status == 200)
    }

    /// A page at `http://rebound.example:port/`, its name pointed at 127.0.0.1, is refused;
    /// the loopback names, IP addresses and names allowed are answered, event stream included.
    @Test func answersOnlyTheHostsItListensAs() throws {
        let served = try Served(allowedHosts: ["mybox.lan", ".dev.example"])
        let port = served.server.port
        for host in [
            "rebound.example:\(port)", "rebound.example", "localhost.example", "127.0.0.1.nip.io",
            "mybox.lan.example", "dev.example.org", "[::1", "localhost:x",
        ] {
            let refused = try served.get("/fruits/apple/", headers: ["Host: \(host)"])
            #expect(refused.status == 403, "\(host)")
            #expect(refused.text.hasPrefix("403 Forbidden"), "\(host)")
            #expect(try served.get("/__fruitsite/events", headers: ["Host: \(host)"]).status == 403)
        }
        #expect(try served.get("http://rebound.example/fruits/apple/").status == 403)
        for host in [
            "localhost", "localhost:\(port)", "LOCALHOST.:\(port)", "127.0.0.1:\(port)",
            "[::1]:\(port)", "site.localhost:\(port)", "192.168.1.20:\(port)", "mybox.lan:\(port)",
            "dev.example", "a.b.dev.example:\(port)",
        ] {
            #expect(try served.get("/fruits/apple/", headers: ["Host: \(host)"]).status == 200)
        }
    }

    /// An end past the file, even past `Int`, ends at its last byte (RFC 9110, 14.1.2); such a
    /// start is past the file.
    @Test func clampsARangeEndingPastTheFile() throws {
        let served = try Served()
        let css = try served.get("/assets/site.css").body
        let whole = try served.get(
            "/assets/site.css", headers: ["Range: bytes=0-99999999999999999999"])
        #expect(whole.status == 206 && whole.body == css)
        #expect(whole.headers["content-range"] == "bytes 0-\(css.count - 1)/\(css.count)")
        let tail = try served.get(
            "/assets/site.css", headers: ["Range: bytes=-99999999999999999999"])
        #expect(tail.status == 206 && tail.body == css)
        let past = try served.get(
            "/assets/site.css", headers: ["Range: bytes=99999999999999999999-"])
        #expect(past.status == 416)
    }
}
