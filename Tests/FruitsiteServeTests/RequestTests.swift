import FruitsiteCore
import Testing

@testable import FruitsiteServe

/// How request bytes become a request, and a target a path inside the site.
@Suite struct RequestTests {
    @Test func refusesTraversalInEverySpelling() {
        let attempts = [
            "/../etc/passwd", "/fruits/../../etc/passwd", "/%2e%2e/etc/passwd",
            "/%2E%2E%2Fetc%2Fpasswd", "/fruits/..%2f..%2fetc/passwd", "/.%2e/etc/passwd",
            "/a\\..\\b", "/%5c..%5cetc%5cpasswd", "/./index.html", "/%00", "/index.html%00.css",
            "/%ff%fe", "/%zz", "/%2", "http://example.com/etc/passwd", "*", "etc/passwd",
            "/fruits%2fapple/", "/fruits%2Fapple/", "/fruits%5capple/",
        ]
        for target in attempts {
            #expect(RequestPath(target: target, basePath: "/") == .refused, "\(target)")
        }
    }

    @Test func decodesOnceSoDoubleEncodingIsOnlyAName() {
        // `%252e` is the name `%2e`, which no site file has: a 404, never a way up.
        #expect(
            RequestPath(target: "/%252e%252e/etc/passwd", basePath: "/")
                == .site("%2e%2e/etc/passwd", query: ""))
        #expect(
            RequestPath(target: "/fruits/a%C3%A7a%C3%AD/?q=x#top", basePath: "/")
                == .site("fruits/açaí/", query: "?q=x"))
    }

    @Test func mountsTheSiteUnderItsBasePath() {
        let base = "/shop/fruits/"
        #expect(RequestPath(target: "/", basePath: base) == .basePath(query: ""))
        #expect(RequestPath(target: "/shop/fruits", basePath: base) == .basePath(query: ""))
        #expect(RequestPath(target: "/?q=berry", basePath: base) == .basePath(query: "?q=berry"))
        #expect(RequestPath(target: "/shop/fruits/", basePath: base) == .site("", query: ""))
        #expect(
            RequestPath(target: "/shop/fruits/fruits/apple/", basePath: base)
                == .site("fruits/apple/", query: ""))
        #expect(RequestPath(target: "/fruits/apple/", basePath: base) == .outsideBasePath)
    }

    @Test func parsesARequestAndWaitsForTheRest() {
        let text = "GET /a?b HTTP/1.1\r\nHost: x\r\nIf-None-Match:  \"e\" \r\n\r\nGET"
        guard case .request(let request, let length) = HTTPRequest.parse(Array(text.utf8)) else {
            Issue.record("not parsed")
            return
        }
        #expect(request.method == "GET" && request.target == "/a?b")
        #expect(request.header("if-none-match") == "\"e\"")
        #expect(request.keepsAlive)
        #expect(length == text.utf8.count - 3)
        #expect(HTTPRequest.parse(Array("GET / HTTP/1.1\r\nHost".utf8)) == .incomplete)
    }

    @Test func refusesWhatIsNotARequest() {
        let long = "GET /" + String(repeating: "a", count: 9_000) + " HTTP/1.1\r\n\r\n"
        #expect(HTTPRequest.parse(Array(long.utf8)) == .failure(status: 414))
        let unfinished = "GET /" + String(repeating: "a", count: 9_000)
        #expect(HTTPRequest.parse(Array(unfinished.utf8)) == .failure(status: 414))
        let headers = "GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 5_000)
        #expect(HTTPRequest.parse(Array(headers.utf8)) == .failure(status: 431))
        for garbage in [
            "\r\n\r\n\r\n", "GET /\r\n\r\n", "get / HTTP/1.1\r\nHost: x\r\n\r\n",
            "GET / HTTP/1.1\r\nNo colon\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
            "GET / HTTP/1.10\r\nHost: x\r\n\r\n", "GET / HTTP/11\r\nHost: x\r\n\r\n",
            "GET * HTTP/1.1\r\nHost: x\r\n\r\n", "GET ftp://x/ HTTP/1.1\r\nHost: x\r\n\r\n",
            // HTTP/1.1 needs one Host header.
            "GET / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        ] {
            #expect(HTTPRequest.parse(Array(garbage.utf8)) == .failure(status: 400), "\(garbage)")
        }
        #expect(HTTPRequest.parse(Array("GET / HTTP/2.0\r\n\r\n".utf8)) == .failure(status: 505))
        // A method never served is told so, body or not.
        let posted = "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
        #expect(HTTPRequest.parse(Array(posted.utf8)) == .failure(status: 405))
    }

    /// What servers must or should accept (RFC 9112): an empty line before the request, an
    /// absolute-form target, HTTP/1.0 without a Host, and a later HTTP/1 as HTTP/1.1.
    @Test func acceptsWhatHTTPAllows() {
        func parsed(_ text: String) -> (HTTPRequest, Int)? {
            guard case .request(let request, let length) = HTTPRequest.parse(Array(text.utf8))
            else { return nil }
            return (request, length)
        }
        let blank = "\r\nGET /a HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(parsed(blank)?.0.target == "/a" && parsed(blank)?.1 == blank.utf8.count)
        for (target, path) in [
            ("http://127.0.0.1:8000/fruits/apple/?q=1", "/fruits/apple/?q=1"),
            ("HTTPS://example.org", "/"), ("http://example.org?q=x", "/?q=x"),
        ] {
            #expect(parsed("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")?.0.target == path)
        }
        #expect(parsed("GET / HTTP/1.0\r\n\r\n")?.0.version == "HTTP/1.0")
        #expect(parsed("GET / HTTP/1.2\r\nHost: x\r\n\r\n")?.0.version == "HTTP/1.1")
    }

    @Test func readsOneByteRange() {
        let cases: [(String, Responder.ByteRange)] = [
            ("bytes=0-9", .part(0...9)), ("bytes=90-", .part(90...99)),
            ("bytes=-10", .part(90...99)), ("bytes=95-200", .part(95...99)),
            ("bytes=-500", .part(0...99)), ("BYTES=1-1", .part(1...1)),
            ("bytes=100-", .unsatisfiable), ("bytes=-0", .unsatisfiable),
            // Not one range: ignored, and the whole file served.
            ("bytes=0-1,5-6", .whole), ("bytes=5-1", .whole), ("bytes=a-b", .whole),
            ("items=0-1", .whole), ("bytes=1", .whole), ("bytes=+1-2", .whole),
            // Numbers past `Int`: an end past the file, a start past it.
            ("bytes=0-99999999999999999999", .part(0...99)),
            ("bytes=-99999999999999999999", .part(0...99)),
            ("bytes=99999999999999999999-", .unsatisfiable),
        ]
        for (header, range) in cases {
            #expect(Responder.byteRange(header, count: 100) == range, "\(header)")
        }
        #expect(Responder.byteRange("bytes=0-", count: 0) == .unsatisfiable)
    }

    @Test func keepsAliveByVersionAndHeader() {
        func request(_ version: String, _ connection: String?) -> HTTPRequest {
            HTTPRequest(
                method: "GET", target: "/", version: version,
                headers: connection.map { [("connection", $0)] } ?? [])
        }
        #expect(request("HTTP/1.1", nil).keepsAlive)
        #expect(!request("HTTP/1.1", "close").keepsAlive)
        #expect(!request("HTTP/1.0", nil).keepsAlive)
        #expect(request("HTTP/1.0", "Keep-Alive").keepsAlive)
    }

    @Test func ignoresEditorTemporariesAndHiddenFiles() {
        for name in [".apple.md.swp", "apple.md~", ".#apple.md", "4913", "apple.tmp", "a.bck"] {
            #expect(FileSystem.isScratch(name), "\(name)")
        }
        #expect(!FileSystem.isScratch("apple.md"))
    }
}
