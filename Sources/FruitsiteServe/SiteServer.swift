import Foundation
import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves the current `ServedSite` over HTTP/1.1 with POSIX sockets: a thread accepts, and
/// each connection has a thread of its own (keep-alive, and open pages' event streams, which
/// wait most of the time), with a time limit on every read so a slow client cannot hold one.
public final class SiteServer: @unchecked Sendable {
    /// An event stream with nothing to say sends a comment this often, which also finds
    /// connections the browser has closed.
    static let heartbeat: TimeInterval = 15

    private let responder: Responder
    private let listener: Int32
    /// Seconds a read may wait before the connection is closed: a slow or idle client cannot
    /// hold a thread for longer.
    private let readTimeout: Int
    /// The port the server listens on.
    public let port: Int
    /// Whether the address it listens on stays on this machine (127.0.0.0/8, `::1`, or
    /// `::ffff:127.0.0.0/104`), however the host was spelt (`localhost`, `127.1`).
    public let isLoopback: Bool
    /// Guards `site`; event streams wait on it for the next version.
    private let condition = NSCondition()
    private var site = ServedSite()

    /// Binds `host:port`; with no port given, the first free one from 8000 (ten tries).
    /// - Parameter allowedHosts: Names a request may ask for besides `host`, the loopback
    ///   names and IP addresses (`AllowedHosts`).
    /// - Throws: `ServeError` naming the address and the system's reason.
    public init(
        host: String, port: Int?, basePath: String, allowedHosts: [String] = [],
        readTimeout: Int = 10
    ) throws(ServeError) {
        self.readTimeout = readTimeout
        var instance = SystemRandomNumberGenerator()
        responder = Responder(
            basePath: basePath, instance: String(instance.next() & 0xFFFF_FFFF, radix: 36),
            hosts: AllowedHosts(listeningOn: host, allowing: allowedHosts))
        let candidates = port.map { [$0] } ?? Array(8000..<8010)
        var lastError = ""
        for candidate in candidates {
            switch Self.openListener(host: host, port: candidate) {
            case .success(let bound):
                (listener, self.port, isLoopback) = bound
                return
            case .failure(let message):
                lastError = message.description
            }
        }
        throw ServeError(
            "cannot listen on \(host):\(port.map(String.init) ?? "8000-8009"): \(lastError)")
    }

    /// Accepts connections on a thread of its own until the process ends.
    public func start() {
        Thread.detachNewThread { [self] in
            while true {
                let connection = accept(listener, nil, nil)
                if connection < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    // Out of descriptors: wait for connections to close rather than spin.
                    if errno == EMFILE || errno == ENFILE {
                        usleep(50_000)
                        continue
                    }
                    return
                }
                Thread.detachNewThread { [self] in serve(connection) }
            }
        }
    }

    /// Serves what `update` changed from now on; open pages are told once it is in place.
    /// - Returns: Whether anything a browser sees changed.
    @discardableResult
    public func publish(_ update: SiteBuilder.LiveSite.Update) -> Bool {
        change { $0.apply(update) }
    }

    /// Whether an update has built, so that there is a good site to keep serving.
    public var hasSite: Bool { current.hasBuilt }

    /// Keeps serving the last good site, with `errors` shown in every page; false when they
    /// are the errors shown already.
    @discardableResult
    public func publish(errors: [String]) -> Bool {
        change { $0.fail(with: errors) }
    }

    private func change(_ body: (inout ServedSite) -> Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let changed = body(&site)
        if changed { condition.broadcast() }
        return changed
    }

    /// The site as served now.
    var current: ServedSite {
        condition.lock()
        defer { condition.unlock() }
        return site
    }

    // MARK: - Connections

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(
            connection, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // When the request being read began: the timeout bounds each read, and this the
        // whole request, so that a byte every few seconds cannot hold a thread forever.
        var begun: Date?
        while true {
            switch HTTPRequest.parse(buffer) {
            case .incomplete:
                if let begun, Date().timeIntervalSince(begun) > TimeInterval(readTimeout) {
                    return
                }
                let count = chunk.withUnsafeMutableBytes {
                    recv(connection, $0.baseAddress, $0.count, 0)
                }
                guard count > 0 else { return }
                if buffer.isEmpty { begun = Date() }
                buffer += chunk[..<count]
            case .failure(let status):
                let response =
                    status == 405 ? Responder.methodNotAllowed : Responder.Response.plain(status)
                _ = sendResponse(response, isHead: false, keepAlive: false, on: connection)
                return
            case .request(let request, let length):
                buffer.removeFirst(length)
                begun = buffer.isEmpty ? nil : Date()
                if let refusal = responder.refusal(of: request) {
                    _ = sendResponse(
                        refusal, isHead: request.method == "HEAD", keepAlive: false,
                        on: connection)
                    return
                }
                // Other methods go on to the responder, which answers 405.
                if request.method == "GET" || request.method == "HEAD",
                    case .site(Responder.eventsPath, _) = RequestPath(
                        target: request.target, basePath: responder.basePath)
                {
                    streamEvents(on: connection, isHead: request.method == "HEAD")
                    return
                }
                let response = responder.respond(to: request, in: current)
                let keepAlive = request.keepsAlive
                guard
                    sendResponse(
                        response, isHead: request.method == "HEAD", keepAlive: keepAlive,
                        on: connection),
                    keepAlive
                else { return }
            }
        }
    }

    /// Server-Sent Events: the current version at once, then each new one as it comes. A
    /// HEAD request gets the head alone. The stream has no length, so closing the connection
    /// is what ends it, and the head says so: the connection is never used again.
    private func streamEvents(on connection: Int32, isHead: Bool) {
        let head =
            "HTTP/1.1 200 OK\r\nDate: \(Self.date())\r\nContent-Type: text/event-stream\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        guard writeAll(Array(head.utf8), to: connection), !isHead else { return }
        var sent = -1
        while true {
            condition.lock()
            let deadline = Date(timeIntervalSinceNow: Self.heartbeat)
            while site.version == sent, condition.wait(until: deadline) {}
            let event = site.version == sent ? nil : site.event
            condition.unlock()
            let message =
                event.map {
                    "data: \($0.json(basePath: responder.basePath, instance: responder.instance))\n\n"
                } ?? ":\n\n"
            guard writeAll(Array(message.utf8), to: connection) else { return }
            if let event { sent = event.version }
        }
    }

    private func sendResponse(
        _ response: Responder.Response, isHead: Bool, keepAlive: Bool, on connection: Int32
    ) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(Responder.Response.reason(response.status))\r\n"
        var headers = [("Date", Self.date())] + response.headers
        if !headers.contains(where: { $0.name == "Content-Length" }), response.status != 304 {
            headers.append(("Content-Length", String(response.body.count)))
        }
        headers.append(("Connection", keepAlive ? "keep-alive" : "close"))
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !isHead { bytes += response.body }
        return writeAll(bytes, to: connection)
    }

    private func writeAll(_ bytes: [UInt8], to connection: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Now as an HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`), which every response carries.
    static func date() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 40)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Listening

    private static func openListener(host: String, port: Int) -> Result<
        (listener: Int32, port: Int, isLoopback: Bool), ServeError
    > {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var info: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &info)
        guard status == 0, let address = info else {
            return .failure(ServeError(String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(info) }
        let listener = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { return .failure(ServeError(String(cString: strerror(errno)))) }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(listener, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0,
            listen(listener, 512) == 0
        else {
            let message = String(cString: strerror(errno))
            close(listener)
            return .failure(ServeError(message))
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(listener, $0, &length)
            }
        }
        let family = bound.ss_family
        let (boundPort, isLoopback) = withUnsafePointer(to: &bound) { pointer -> (Int, Bool) in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    let bytes = withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
                    let isMapped =
                        bytes[..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF
                        && bytes[11] == 0xFF
                    let isLoopback =
                        bytes[..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                        || isMapped && bytes[12] == 127
                    return (Int(UInt16(bigEndian: $0.pointee.sin6_port)), isLoopback)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                let first = withUnsafeBytes(of: $0.pointee.sin_addr) { $0[0] }
                return (Int(UInt16(bigEndian: $0.pointee.sin_port)), first == 127)
            }
        }
        return .success((listener, boundPort, isLoopback))
    }
}

/// Why `serve` could not start or go on.
public struct ServeError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
