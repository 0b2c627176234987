import Foundation
import FruitsiteCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves the current `ServedSite` over HTTP/1.1 with POSIX sockets. A thread per core holds
/// the connections it accepted (`ConnectionLoop`): keep-alive ones, and open pages' event
/// streams, which wait most of the time, cost a socket each rather than a thread, and a
/// response is sent from the bytes the site already holds, as fast as the client takes it.
public final class SiteServer: @unchecked Sendable {
    private let responder: Responder
    private let listener: Int32
    /// How long a client may neither send nor take a byte before its connection is closed.
    private let timeout: Duration
    /// A pipe for each loop, which wakes it when the site changes, so open pages are told.
    private let wakeUps: [(read: Int32, write: Int32)]
    /// The port the server listens on.
    public let port: Int
    /// Whether the address it listens on stays on this machine (127.0.0.0/8, `::1`, or
    /// `::ffff:127.0.0.0/104`), however the host was spelt (`localhost`, `127.1`).
    public let isLoopback: Bool
    /// Guards `site`.
    private let lock = NSLock()
    private var site = ServedSite()
    private let pages = OpenPages()

    /// Binds `host:port`; with no port given, the first free one from 8000 (ten tries).
    /// - Parameters:
    ///   - allowedHosts: Names a request may ask for besides `host`, the loopback names and
    ///     IP addresses (`AllowedHosts`).
    ///   - timeout: Seconds a client may neither send nor take a byte: a slow or stalled
    ///     client, or one that asks and never reads, holds nothing for longer.
    /// - Throws: `ServeError` naming the address and the system's reason.
    public init(
        host: String, port: Int?, basePath: String, allowedHosts: [String] = [],
        timeout: Int = 10
    ) throws(ServeError) {
        self.timeout = .seconds(timeout)
        var instance = SystemRandomNumberGenerator()
        responder = Responder(
            basePath: basePath, instance: String(instance.next() & 0xFFFF_FFFF, radix: 36),
            hosts: AllowedHosts(listeningOn: host, allowing: allowedHosts))
        var wakeUps: [(read: Int32, write: Int32)] = []
        for _ in 0..<max(1, ProcessInfo.processInfo.activeProcessorCount) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                throw ServeError("cannot make a pipe: \(String(cString: strerror(errno)))")
            }
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
            wakeUps.append((ends[0], ends[1]))
        }
        self.wakeUps = wakeUps
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

    /// Serves connections on a thread of its own until the process ends.
    public func start() {
        Self.raiseDescriptorLimit()
        for wakeUp in wakeUps {
            Thread.detachNewThread { [self] in
                ConnectionLoop(
                    listener: listener, wakeUp: wakeUp.read, responder: responder,
                    timeout: timeout, openPages: pages, current: { [self] in current }
                ).run()
            }
        }
    }

    /// Serves what `update` changed from now on; open pages are told once it is in place.
    /// - Returns: Whether anything a browser sees changed.
    @discardableResult
    public func publish(_ update: SiteBuilder.LiveSite.Update) -> Bool {
        change { $0.apply(update) }
    }

    /// Serves the pages an update rendered first, and removes the open ones it removes
    /// (`LiveSite.update(changing:open:first:)`), before the rest of it: the open pages
    /// among them are told.
    /// - Returns: Whether any of them changed.
    @discardableResult
    public func publish(first pages: [RenderedPage], removing removed: [String]) -> Bool {
        change { $0.apply(files: pages, removed: removed) }
    }

    /// The files of the pages browsers have open now, as their event streams name them
    /// (`fruits/apple/index.html`): an update renders and publishes those first.
    public var openPages: Set<String> { pages.paths }

    /// Whether an update has built, so that there is a good site to keep serving.
    public var hasSite: Bool { current.hasBuilt }

    /// Keeps serving the last good site, with `errors` shown in every page; false when they
    /// are the errors shown already.
    @discardableResult
    public func publish(errors: [String]) -> Bool {
        change { $0.fail(with: errors) }
    }

    private func change(_ body: (inout ServedSite) -> Bool) -> Bool {
        let changed = lock.withLock { body(&site) }
        if changed {
            for wakeUp in wakeUps {
                var byte: UInt8 = 1
                _ = write(wakeUp.write, &byte, 1)
            }
        }
        return changed
    }

    /// The site as served now.
    var current: ServedSite {
        lock.withLock { site }
    }

    /// An open page's event stream holds a descriptor: the soft limit (often 1,024) is
    /// raised to the hard one, as servers do, so that thousands of open pages fit.
    private static func raiseDescriptorLimit() {
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(resource, &limit)
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
        _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
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
