#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connections `serve` holds on one thread (one loop a core, each accepting from the
/// same listener): `poll` says which sockets can read or take more bytes, and each is served
/// as far as it goes without waiting. A connection costs its socket and what `Connection`
/// holds, not a thread; a client that neither sends nor takes a byte for `timeout` is
/// closed, so none holds anything for longer.
final class ConnectionLoop {
    /// An event stream with nothing to say sends a comment this often, which also finds
    /// connections the browser has closed.
    static let heartbeat = Duration.seconds(15)
    /// The most an event stream may have queued: events are a few hundred bytes, so a stream
    /// past this has stopped reading, and is closed rather than let grow.
    static let streamQueueLimit = 64 * 1024

    private let listener: Int32
    /// The read end of a pipe `SiteServer` writes to when the site changes.
    private let wakeUp: Int32
    private let responder: Responder
    private let timeout: Duration
    private let current: () -> ServedSite
    private let openPages: OpenPages
    private var connections: [Connection] = []
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    private let clock = ContinuousClock()
    /// Out of descriptors, accepting waits until then for connections to close.
    private var acceptsAfter: ContinuousClock.Instant?
    private var lastSweep: ContinuousClock.Instant

    init(
        listener: Int32, wakeUp: Int32, responder: Responder, timeout: Duration,
        openPages: OpenPages, current: @escaping () -> ServedSite
    ) {
        (self.listener, self.wakeUp, self.responder) = (listener, wakeUp, responder)
        (self.timeout, self.openPages, self.current) = (timeout, openPages, current)
        lastSweep = clock.now
    }

    func run() -> Never {
        while true {
            let accepting = acceptsAfter.map { clock.now >= $0 } ?? true
            if accepting { acceptsAfter = nil }
            var polled = [
                pollfd(fd: listener, events: accepting ? Int16(POLLIN) : 0, revents: 0),
                pollfd(fd: wakeUp, events: Int16(POLLIN), revents: 0),
            ]
            polled += connections.map {
                pollfd(fd: $0.socket, events: Int16($0.isSending ? POLLOUT : POLLIN), revents: 0)
            }
            let ready = poll(&polled, nfds_t(polled.count), 250)
            let now = clock.now
            if ready > 0 {
                var closing: Set<Int32> = []
                for index in connections.indices where polled[index + 2].revents != 0 {
                    if !handle(&connections[index], events: polled[index + 2].revents, now: now) {
                        closing.insert(connections[index].socket)
                    }
                }
                closeAll(closing)
                if polled[1].revents != 0 {
                    while read(wakeUp, &buffer, buffer.count) > 0 {}
                    tellStreams(now: now)
                }
                if polled[0].revents != 0 { acceptAll(now: now) }
            }
            if now - lastSweep >= .milliseconds(250) {
                lastSweep = now
                sweep(now: now)
            }
        }
    }

    // MARK: - Connections

    private func acceptAll(now: ContinuousClock.Instant) {
        while true {
            let socket = accept(listener, nil, nil)
            if socket < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors: wait for connections to close rather than spin.
                if errno == EMFILE || errno == ENFILE { acceptsAfter = now + .milliseconds(50) }
                return
            }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            // A response is written whole (`Connection.flush`): no need to hold its last
            // segment back for the client's acknowledgement of the one before.
            var yes: Int32 = 1
            setsockopt(
                socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            connections.append(Connection(socket: socket, now: now))
        }
    }

    /// Serves one connection `poll` named. - Returns: False to close it.
    private func handle(
        _ connection: inout Connection, events: Int16, now: ContinuousClock.Instant
    ) -> Bool {
        if events & Int16(POLLERR | POLLNVAL) != 0 { return false }
        if connection.isSending {
            guard connection.flush(now: now) else { return false }
            if connection.isSending { return true }
            if case .exchange(closesWhenSent: true) = connection.kind { return false }
        } else if events & Int16(POLLIN | POLLHUP) != 0 {
            guard connection.receive(into: &buffer, now: now) else { return false }
        }
        return answer(&connection, now: now)
    }

    /// Answers the requests `connection` has received, one at a time: the next is read once
    /// the client has taken the answer to the last, which bounds what a connection holds.
    /// - Returns: False to close it.
    private func answer(_ connection: inout Connection, now: ContinuousClock.Instant) -> Bool {
        while !connection.isSending, case .exchange = connection.kind {
            switch HTTPRequest.parse(connection.input) {
            case .incomplete:
                return true
            case .failure(let status):
                let response =
                    status == 405 ? Responder.methodNotAllowed : Responder.Response.plain(status)
                queue(response, isHead: false, keepAlive: false, on: &connection)
            case .request(let request, let length):
                connection.input.removeFirst(length)
                connection.requestBegan = connection.input.isEmpty ? nil : now
                let isHead = request.method == "HEAD"
                if let refusal = responder.refusal(of: request) {
                    queue(refusal, isHead: isHead, keepAlive: false, on: &connection)
                } else if request.method == "GET" || isHead,
                    case .site(Responder.eventsPath, let query) = RequestPath(
                        target: request.target, basePath: responder.basePath)
                {
                    openStream(&connection, page: responder.page(named: query), isHead: isHead)
                } else {
                    let response = responder.respond(to: request, in: current())
                    queue(response, isHead: isHead, keepAlive: request.keepsAlive, on: &connection)
                }
            }
            guard connection.flush(now: now) else { return false }
            if !connection.isSending, case .exchange(closesWhenSent: true) = connection.kind {
                return false
            }
        }
        return true
    }

    private func queue(
        _ response: Responder.Response, isHead: Bool, keepAlive: Bool,
        on connection: inout Connection
    ) {
        var head = "HTTP/1.1 \(response.status) \(Responder.Response.reason(response.status))\r\n"
        var headers = [("Date", SiteServer.date())] + response.headers
        if !headers.contains(where: { $0.name == "Content-Length" }), response.status != 304 {
            headers.append(("Content-Length", String(response.body.count)))
        }
        headers.append(("Connection", keepAlive ? "keep-alive" : "close"))
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        connection.queue(head: Array(head.utf8), body: isHead ? [] : response.body)
        connection.kind = .exchange(closesWhenSent: !keepAlive)
    }

    private func closeAll(_ sockets: Set<Int32>) {
        guard !sockets.isEmpty else { return }
        for connection in connections where sockets.contains(connection.socket) {
            if case .events(_, let page?) = connection.kind { openPages.close(page) }
        }
        for socket in sockets { close(socket) }
        connections.removeAll { sockets.contains($0.socket) }
    }

    // MARK: - Event streams

    /// Server-Sent Events: the current version at once, then each new one as it comes. A
    /// HEAD request gets the head alone. The stream has no length, so closing the connection
    /// is what ends it, and the head says so: the connection is never used again.
    /// - Parameter page: The path of the open page's file, which the stream is counted for.
    private func openStream(_ connection: inout Connection, page: String?, isHead: Bool) {
        let head =
            "HTTP/1.1 200 OK\r\nDate: \(SiteServer.date())\r\nContent-Type: text/event-stream\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\r\n"
        connection.queue(head: Array(head.utf8), body: [])
        guard !isHead else {
            connection.kind = .exchange(closesWhenSent: true)
            return
        }
        connection.kind = .events(sent: -1, page: page)
        if let page { openPages.open(page) }
        tell(&connection, current())
    }

    /// Queues the site's event for a stream that has not had it.
    private func tell(_ connection: inout Connection, _ site: ServedSite) {
        guard case .events(let sent, let page) = connection.kind, sent != site.version else {
            return
        }
        let event = site.event(forPage: page)
        let message =
            "data: \(event.json(basePath: responder.basePath, instance: responder.instance))\n\n"
        connection.queue(head: Array(message.utf8), body: [])
        connection.kind = .events(sent: site.version, page: page)
    }

    private func tellStreams(now: ContinuousClock.Instant) {
        let site = current()
        var closing: Set<Int32> = []
        for index in connections.indices where connections[index].isEventStream {
            tell(&connections[index], site)
            if !connections[index].flush(now: now) { closing.insert(connections[index].socket) }
        }
        closeAll(closing)
    }

    // MARK: - Time limits

    /// Closes the connections that have made no progress within the timeout, and sends the
    /// heartbeat of streams that have been quiet.
    private func sweep(now: ContinuousClock.Instant) {
        var closing: Set<Int32> = []
        for index in connections.indices {
            let connection = connections[index]
            let isStalled: Bool
            if connection.isSending {
                isStalled =
                    now - connection.lastProgress > timeout
                    || connection.isEventStream
                        && connection.queuedCount > Self.streamQueueLimit
            } else if connection.isEventStream {
                if now - connection.lastSent >= Self.heartbeat {
                    connections[index].queue(head: Array(":\n\n".utf8), body: [])
                    isStalled = !connections[index].flush(now: now)
                } else {
                    isStalled = false
                }
            } else if let began = connection.requestBegan {
                isStalled = now - began > timeout
            } else {
                isStalled = now - connection.lastProgress > timeout
            }
            if isStalled { closing.insert(connection.socket) }
        }
        closeAll(closing)
    }
}
