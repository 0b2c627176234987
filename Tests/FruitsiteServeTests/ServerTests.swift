import Foundation
import FruitsiteCore
import TestSupport
import Testing

@testable import FruitsiteServe

#if canImport(Glibc)
    import Glibc
#endif

/// `serve` over real sockets: a copy of the sample site, served from memory.
@Suite struct ServerTests {
    /// The sample in one language in a temporary folder, a live site of it, and a server.
    final class Served: @unchecked Sendable {
        let folder: TemporaryDirectory
        let options: BuildOptions
        var site: SiteBuilder.LiveSite
        let server: SiteServer

        init(basePath: String = "/", allowedHosts: [String] = [], timeout: Int = 10) throws {
            folder = try TemporaryDirectory()
            try Sample.copyInOneLanguage(to: folder.path)
            // A config of its own: none would be the working folder's, the sample's.
            try folder.write("fruitsite.yml", "")
            var options = BuildOptions()
            options.configPath = folder.path + "/fruitsite.yml"
            options.contentDirectory = folder.path + "/Content"
            options.templatesDirectory = folder.path + "/Templates"
            options.outputDirectory = folder.path + "/Output"
            options.cacheDirectory = folder.path + "/.cache"
            self.options = options
            site = SiteBuilder.LiveSite(builder: SiteBuilder(options: options))
            server = try SiteServer(
                host: "127.0.0.1", port: 0, basePath: basePath, allowedHosts: allowedHosts,
                timeout: timeout)
            server.start()
            update()
        }

        deinit { folder.remove() }

        /// Applies what changed on disk, as the serve loop does.
        func update() {
            switch Result(catching: { () throws(BuildFailure) in try site.update() }) {
            case .success(let update): server.publish(update)
            case .failure(let failure):
                server.publish(errors: failure.diagnostics.map(\.description))
            }
        }

        /// One request on a connection of its own, with `Host: localhost` unless `headers`
        /// name another.
        func get(_ target: String, headers: [String] = [], method: String = "GET") throws
            -> Response
        {
            let host =
                headers.contains { $0.lowercased().hasPrefix("host:") } ? [] : ["Host: localhost"]
            let connection = try Connection(port: server.port)
            try connection.send(
                "\(method) \(target) HTTP/1.1\r\nConnection: close\r\n"
                    + (host + headers).map { $0 + "\r\n" }.joined() + "\r\n")
            return try Response(connection.readAll())
        }
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }

        init(_ bytes: [UInt8]) throws {
            let separator = Array("\r\n\r\n".utf8)
            guard
                let end = bytes.indices.first(where: {
                    bytes[$0...].starts(with: separator)
                })
            else { throw TestError("no end of head in \(bytes.count) bytes") }
            let lines = String(decoding: bytes[..<end], as: UTF8.self).components(
                separatedBy: "\r\n")
            status = Int(lines[0].split(separator: " ")[1]) ?? 0
            headers = [:]
            for line in lines.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            body = Array(bytes[(end + 4)...])
        }
    }

    struct TestError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// A raw TCP connection to the server.
    final class Connection {
        let socket: Int32

        init(port: Int) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let status = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard status == 0 else { throw TestError("cannot connect: \(errno)") }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(
                socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(socket) }

        func send(_ text: String) throws {
            let bytes = Array(text.utf8)
            guard
                bytes.withUnsafeBytes({
                    Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                })
                    == bytes.count
            else { throw TestError("cannot send") }
        }

        /// One `recv`: whatever has arrived, waiting for at least a byte.
        func read() throws -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { throw TestError("read failed: \(errno)") }
            return Array(buffer[..<count])
        }

        func readAll() throws -> [UInt8] {
            var bytes: [UInt8] = []
            while case let chunk = try read(), !chunk.isEmpty { bytes += chunk }
            return bytes
        }
    }

    /// The page without the reload script `serve` adds.
    static func withoutReloadScript(_ text: String) -> String {
        guard let start = text.range(of: "<script data-fruitsite>(()=>{let v="),
            let end = text.range(of: "</script>", range: start.upperBound..<text.endIndex)
        else { return text }
        return text.replacingCharacters(in: start.lowerBound..<end.upperBound, with: "")
    }

    // MARK: - Tests

    @Test func servesEveryFileABuildWritesWithOnlyTheScriptAdded() throws {
        let served = try Served()
        _ = try SiteBuilder(options: served.options).build()
        let files = filesBelow(served.options.outputDirectory).filter {
            !$0.hasPrefix(".fruitsite")
        }
        #expect(files.count > 50)
        for file in files {
            let built = try Data(
                contentsOf: URL(fileURLWithPath: served.options.outputDirectory + "/" + file))
            let target = "/" + (file.hasSuffix("/index.html") ? String(file.dropLast(10)) : file)
            let response = try served.get(target == "/index.html" ? "/" : target)
            #expect(response.status == 200, "\(file)")
            if file.hasSuffix(".html") {
                #expect(
                    response.text.contains(
                        "new EventSource(\"/__fruitsite/events?page=\"+location.pathname)"))
                #expect(
                    Self.withoutReloadScript(response.text)
                        == String(decoding: built, as: UTF8.self),
                    "\(file)")
                #expect(response.headers["cache-control"] == "no-store")
            } else {
                #expect(response.body == Array(built), "\(file)")
            }
        }
        #expect(
            try served.get("/assets/site.css").headers["content-type"] == "text/css; charset=utf-8")
        let index = try #require(files.first { $0.hasPrefix("search-index.") })
        #expect(try served.get("/" + index).headers["content-type"] == "application/json")
    }

    /// Fonts, media and WebAssembly get their types: with `nosniff`, a browser would refuse a
    /// font or `instantiateStreaming` given `application/octet-stream`.
    @Test func namesTheTypeOfEveryKindOfAsset() {
        let types = [
            "a.wasm": "application/wasm", "a.ttf": "font/ttf", "a.otf": "font/otf",
            "a.woff2": "font/woff2", "a.mp4": "video/mp4", "a.webm": "video/webm",
            "a.mp3": "audio/mpeg", "a.csv": "text/csv; charset=utf-8", "A.PNG": "image/png",
            "no-extension": "application/octet-stream",
        ]
        for (path, type) in types {
            #expect(Responder.contentType(of: "assets/" + path) == type, "\(path)")
        }
    }

    @Test func answersAsAStaticHostWould() throws {
        let served = try Served()
        let page = try served.get("/fruits/apple/")
        let head = try served.get("/fruits/apple/", method: "HEAD")
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == String(page.body.count))
        let etag = try #require(page.headers["etag"])
        #expect(try served.get("/fruits/apple/", headers: ["If-None-Match: \(etag)"]).status == 304)
        let moved = try served.get("/fruits/apple?x=1")
        #expect(moved.status == 301 && moved.headers["location"] == "/fruits/apple/?x=1")
        let missing = try served.get("/no/such/page")
        #expect(missing.status == 404)
        #expect(missing.text.contains("Page not found"))
        #expect(try served.get("/", method: "POST").status == 405)
        let posted = try served.get("/", headers: ["Content-Length: 3"], method: "POST")
        #expect(posted.status == 405 && posted.headers["allow"] == "GET, HEAD")
        let refused = try served.get("/../../etc/passwd")
        #expect(refused.status == 400 && refused.text == "400 Bad Request\n")
        #expect(refused.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(try served.get("/%2e%2e/%2e%2e/etc/passwd").status == 400)
        #expect(try served.get("/assets/").status == 404)  // a folder is never listed
        // A folder of pages has a page of its own, which leads to the list of them.
        let fruits = try served.get("/fruits/")
        #expect(fruits.status == 200 && fruits.text.contains(#"content="0; url=../""#))
        // Every response says when it was made (RFC 9110, 6.6.1).
        for response in [page, head, moved, missing, posted, refused] {
            let date = try #require(response.headers["date"])
            #expect(
                date.wholeMatch(of: /[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT/)
                    != nil)
        }
        // A byte range of a file that is not a page, as media players seek.
        let css = try served.get("/assets/site.css")
        #expect(css.headers["accept-ranges"] == "bytes" && page.headers["accept-ranges"] == nil)
        let part = try served.get("/assets/site.css", headers: ["Range: bytes=10-19"])
        #expect(part.status == 206 && part.body == Array(css.body[10...19]))
        #expect(part.headers["content-range"] == "bytes 10-19/\(css.body.count)")
        let beyond = try served.get("/assets/site.css", headers: ["Range: bytes=999999-"])
        #expect(beyond.status == 416)
        #expect(beyond.headers["content-range"] == "bytes */\(css.body.count)")
        let stale = try served.get(
            "/assets/site.css", headers: ["Range: bytes=10-19", "If-Range: \"other\""])
        #expect(stale.status == 200 && stale.body == css.body)
        // An absolute-form target is the path it names.
        #expect(try served.get("http://127.0.0.1/fruits/apple/").text == page.text)
    }

    @Test func servesUnderABasePath() throws {
        let served = try Served(basePath: "/shop/")
        let root = try served.get("/")
        #expect(root.status == 301 && root.headers["location"] == "/shop/")
        // A shared search keeps its query; a name that is not ASCII is percent-encoded.
        #expect(try served.get("/?q=berry").headers["location"] == "/shop/?q=berry")
        try served.folder.write("Templates/assets/ün i/index.html", "<p>x</p>")
        served.update()
        let folder = try served.get("/shop/assets/%C3%BCn%20i?x=1")
        #expect(folder.status == 301)
        #expect(folder.headers["location"] == "/shop/assets/%C3%BCn%20i/?x=1")
        let index = try served.get("/shop/")
        #expect(index.status == 200)
        #expect(
            index.text.contains(
                "new EventSource(\"/shop/__fruitsite/events?page=\"+location.pathname)"))
        #expect(try served.get("/fruits/apple/").status == 404)
        #expect(try served.get("/shop/fruits/apple/").status == 200)
    }

    @Test func keepsAConnectionAlive() throws {
        let served = try Served()
        let connection = try Connection(port: served.server.port)
        try connection.send(
            "HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\nHEAD /fruits/apple/ HTTP/1.1\r\nHost: localhost\r\n\r\n"
        )
        var text = ""
        while text.components(separatedBy: "HTTP/1.1 200 OK").count < 3 {
            text += String(decoding: try connection.read(), as: UTF8.self)
        }
        #expect(text.components(separatedBy: "Connection: keep-alive").count == 3)
    }

    /// A fruit renamed while serving: its old address redirects to its page (a page that
    /// missed the rename's event reloads there), through renames in a row, until the old
    /// name is taken again or the fruit is gone.
    @Test func leadsARenamedFruitsOldAddressToItsPage() throws {
        let served = try Served(basePath: "/shop/")
        let content = served.folder.path + "/Content/"
        func rename(_ from: String, _ to: String) throws {
            try FileManager.default.moveItem(atPath: content + from, toPath: content + to)
            served.update()
        }
        try rename("apple.md", "apple-tree.md")
        try rename("apple-tree.md", "old-apple.md")
        for old in ["apple/", "apple-tree/", "apple", "apple/index.html"] {
            let moved = try served.get("/shop/fruits/\(old)?q=1")
            #expect(moved.status == 302, "\(old)")
            #expect(moved.headers["location"] == "/shop/fruits/old-apple/?q=1", "\(old)")
            #expect(moved.headers["cache-control"] == "no-store")
        }
        #expect(try served.get("/shop/fruits/old-apple/").status == 200)
        // A fruit that takes the old name again has its own page there.
        try served.folder.write("Content/apple.md", "---\nname: New Apple\ncategory: Pome\n---\n")
        served.update()
        #expect(try served.get("/shop/fruits/apple/").text.contains("New Apple"))
        #expect(try served.get("/shop/fruits/apple-tree/").status == 302)
        // Renamed back, the fruit is at its own address, which leads nowhere else.
        try FileManager.default.removeItem(atPath: content + "apple.md")
        served.update()
        try rename("old-apple.md", "apple.md")
        #expect(try served.get("/shop/fruits/apple/").status == 200)
        #expect(
            try served.get("/shop/fruits/apple-tree/").headers["location"] == "/shop/fruits/apple/")
        // A fruit that is gone leads nowhere.
        try FileManager.default.removeItem(atPath: content + "apple.md")
        served.update()
        #expect(try served.get("/shop/fruits/apple-tree/").status == 404)
        // Its old addresses are forgotten with it, so that they do not pile up.
        #expect(served.server.current.moves.isEmpty)
    }

    /// HEAD of the event stream answers as GET would begin, with no events, and ends.
    @Test func answersHeadOfTheEventStream() throws {
        let served = try Served()
        let head = try served.get("/__fruitsite/events", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.headers["content-type"] == "text/event-stream")
        #expect(head.body.isEmpty)
        // Other methods get what they get anywhere else.
        for method in ["POST", "DELETE", "OPTIONS"] {
            #expect(try served.get("/__fruitsite/events", method: method).status == 405)
        }
    }

    @Test func tellsOpenPagesOnlyOnceTheNewSiteIsServed() throws {
        let served = try Served()
        let events = try Connection(port: served.server.port)
        try events.send("GET /__fruitsite/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        var stream = ""
        while !stream.contains("\"version\":1,") {
            stream += String(decoding: try events.read(), as: UTF8.self)
        }
        // The stream has no length: only the connection's end can end it.
        #expect(stream.contains("\r\nConnection: close\r\n"))
        #expect(!stream.contains("Content-Length") && !stream.contains("keep-alive"))
        let apple = served.folder.path + "/Content/apple.md"
        let text = try String(contentsOfFile: apple, encoding: .utf8)
        try text.replacingOccurrences(of: "\n---\n", with: "\n---\nFreshly edited words.\n")
            .write(toFile: apple, atomically: true, encoding: .utf8)
        served.update()
        while !stream.contains("\"version\":2,") {
            stream += String(decoding: try events.read(), as: UTF8.self)
        }
        #expect(try served.get("/fruits/apple/").text.contains("Freshly edited words."))
        // A page that missed version 2 learns from version 3 that its pages changed since,
        // and its stylesheet too.
        let css = served.folder.path + "/Templates/assets/site.css"
        try (String(contentsOfFile: css, encoding: .utf8) + "\nbody { margin: 1px; }\n")
            .write(toFile: css, atomically: true, encoding: .utf8)
        served.update()
        // (A wrong event leaves the read to time out, which fails the test.)
        while !stream.contains("\"version\":3,\"pages\":2,\"styles\":3}") {
            stream += String(decoding: try events.read(), as: UTF8.self)
        }
        #expect(stream.contains("\"version\":1,\"pages\":1,\"styles\":1}"))
        #expect(stream.contains("\"version\":2,\"pages\":2,\"styles\":1}"))
        // Each event names the server, as the page's script does: a page served by a server
        // since stopped reloads from the one started again, whose versions start anew.
        let instance = try #require(
            stream.firstMatch(of: /"instance":"([0-9a-z]+)"/).map { String($0.1) })
        #expect(try served.get("/fruits/apple/").text.contains(#"if(d.instance!=="\#(instance)")"#))
    }

    /// A page's event stream names the page: it is refreshed when what it shows changes (its
    /// file, its removal, or errors), not when another page does, and while it is open the
    /// server counts it among the open pages, whose new bytes it serves first.
    @Test func tellsAnOpenPageOfItsOwnChangesOnly() throws {
        let served = try Served()
        var events: Connection? = try Connection(port: served.server.port)
        try events!.send(
            "GET /__fruitsite/events?page=/fruits/apple/ HTTP/1.1\r\nHost: localhost\r\n\r\n")
        var stream = ""
        func read(until text: String) throws {
            while !stream.contains(text) {
                stream += String(decoding: try events!.read(), as: UTF8.self)
            }
        }
        try read(until: "\"version\":1,\"pages\":1,")
        #expect(served.server.openPages == ["fruits/apple/index.html"])
        func edit(_ name: String, _ change: (String) -> String) throws {
            let path = served.folder.path + "/Content/" + name
            try change(try String(contentsOfFile: path, encoding: .utf8))
                .write(toFile: path, atomically: true, encoding: .utf8)
            served.update()
        }
        // Another fruit's body: the apple's page is as it was.
        try edit("watermelon.md") { $0 + "\nMore words.\n" }
        try read(until: "\"version\":2,\"pages\":1,")
        try edit("apple.md") { $0 + "\nMore words.\n" }
        try read(until: "\"version\":3,\"pages\":3,")
        // The same bytes published first, then again with the whole update: no news.
        let page = try served.get("/fruits/apple/")
        #expect(
            !served.server.publish(
                first: [
                    RenderedPage(
                        path: "fruits/apple/index.html",
                        bytes: Array(Self.withoutReloadScript(page.text).utf8))
                ], removing: []))
        try edit("apple.md") { $0.replacingOccurrences(of: "name: Apple", with: "name: [") }
        try read(until: "\"version\":4,\"pages\":4,")
        try edit("apple.md") { $0.replacingOccurrences(of: "name: [", with: "name: Apple") }
        try read(until: "\"version\":5,\"pages\":5,")
        try FileManager.default.removeItem(atPath: served.folder.path + "/Content/apple.md")
        served.update()
        try read(until: "\"version\":6,\"pages\":6,")
        events = nil
        let deadline = Date().addingTimeInterval(10)
        while !served.server.openPages.isEmpty && Date() < deadline { usleep(10_000) }
        #expect(served.server.openPages.isEmpty)
    }

    /// The same errors again (a poll finds them every interval) change nothing an open page
    /// sees: it is not told to reload.
    @Test func theSameErrorsAgainAreNoNews() throws {
        let server = try SiteServer(host: "127.0.0.1", port: 0, basePath: "/", timeout: 10)
        #expect(server.publish(errors: ["a.md:1:1: error: x"]))
        #expect(!server.publish(errors: ["a.md:1:1: error: x"]))
        #expect(server.publish(errors: ["a.md:2:1: error: y"]))
    }

    @Test func showsErrorsInEveryPageUntilTheyAreFixed() throws {
        let served = try Served()
        let apple = served.folder.path + "/Content/apple.md"
        let good = try String(contentsOfFile: apple, encoding: .utf8)
        try "---\nname: [\n---\n".write(toFile: apple, atomically: true, encoding: .utf8)
        served.update()
        let page = try served.get("/fruits/banana/")
        #expect(page.status == 200)
        #expect(page.text.contains("id=\"fruitsite-errors\""))
        #expect(page.text.contains("apple.md:3:1: error: invalid YAML"))
        #expect(page.text.contains("this is the last good site"))
        #expect(served.server.hasSite)
        #expect(try served.get("/nothing-here").text.contains("fruitsite-errors"))
        try good.write(toFile: apple, atomically: true, encoding: .utf8)
        served.update()
        #expect(!(try served.get("/fruits/banana/").text.contains("fruitsite-errors")))
    }

    /// Before anything built there is no good site: the errors say so, on every address.
    @Test func showsTheErrorsOfAFirstBuildAsSuch() throws {
        let server = try SiteServer(host: "127.0.0.1", port: 0, basePath: "/", timeout: 10)
        server.start()
        server.publish(errors: ["Content/a.md:1:1: error: the file is empty"])
        #expect(!server.hasSite)
        let connection = try Connection(port: server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        let page = try Response(connection.readAll())
        #expect(page.text.contains("The site does not build yet"), "\(page.text)")
        #expect(page.text.contains("Content/a.md:1:1: error: the file is empty"))
    }

    @Test func closesTheConnectionOfASlowClient() throws {
        let served = try Served(timeout: 1)
        let connection = try Connection(port: served.server.port)
        try connection.send("GET / HTTP/1.1\r\nHost: ")
        // Half a request and then nothing: the server closes the connection, and the socket
        // reads its end without a response.
        #expect(try connection.readAll().isEmpty)
        #expect(try served.get("/").status == 200)

        // A byte every 0.4 s never waits out one read, but the request as a whole times out:
        // the server closes the connection long before the last of the 24 s of bytes.
        let trickle = try Connection(port: served.server.port)
        var closed = false
        for byte in "GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: abcdefghijklmnopqrstuvwxyz".map(
            String.init)
        {
            // A send to a closed socket fails once the peer's reset has arrived.
            do { try trickle.send(byte) } catch {
                closed = true
                break
            }
            Thread.sleep(forTimeInterval: 0.4)
        }
        #expect(closed)
    }

    @Test func servesManyConnectionsAtOnce() throws {
        let served = try Served()
        // An `NSLock`, not a `Mutex`: ThreadSanitizer sees a pthread mutex, not the futex a
        // `Mutex` waits on, and would report the appends as a race.
        let lock = NSLock()
        nonisolated(unsafe) var statuses: [Int] = []
        DispatchQueue.concurrentPerform(iterations: 200) { _ in
            let status = (try? served.get("/fruits/apple/").status) ?? 0
            lock.withLock { statuses.append(status) }
        }
        #expect(statuses == Array(repeating: 200, count: 200))
    }
}
