#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client's socket and what the server holds for it: the bytes of a request not yet
/// whole, and the response not yet sent, as slices of bytes the served site already holds
/// (a file is never copied per client). The socket does not block: `ConnectionLoop` sends
/// as much as the client takes and comes back when it can take more.
struct Connection {
    enum Kind {
        /// Requests and responses; `closesWhenSent` once the response is the last one.
        case exchange(closesWhenSent: Bool)
        /// A Server-Sent Events stream, which has told the page up to `sent`.
        case events(sent: Int)
    }

    let socket: Int32
    var kind = Kind.exchange(closesWhenSent: false)
    /// Received bytes that do not make a whole request yet.
    var input: [UInt8] = []
    /// What is left to send, in order.
    private(set) var output: [ArraySlice<UInt8>] = []
    /// When the request being read began: a timeout bounds the whole request, so that a byte
    /// every few seconds cannot hold a connection.
    var requestBegan: ContinuousClock.Instant?
    /// When the client last sent a byte or took one: a client that does neither for the
    /// timeout is closed, whether it is idle, reading slowly or not reading at all.
    var lastProgress: ContinuousClock.Instant
    /// When an event stream last sent anything, for its heartbeat.
    var lastSent: ContinuousClock.Instant

    init(socket: Int32, now: ContinuousClock.Instant) {
        self.socket = socket
        (lastProgress, lastSent) = (now, now)
    }

    var isSending: Bool { !output.isEmpty }

    var isEventStream: Bool {
        if case .events = kind { true } else { false }
    }

    /// The bytes queued, counted: an event stream whose client stopped reading is closed
    /// before this grows past a few events.
    var queuedCount: Int { output.reduce(0) { $0 + $1.count } }

    /// Queues `head` and `body`; a small body goes with the head in one piece, so that a
    /// response is one system call.
    mutating func queue(head: [UInt8], body: ArraySlice<UInt8>) {
        if body.count <= 16 * 1024 {
            output.append(ArraySlice(head + body))
        } else {
            output.append(ArraySlice(head))
            output.append(body)
        }
    }

    /// Sends what the socket takes now.
    /// - Returns: False when the connection failed (the client has gone).
    mutating func flush(now: ContinuousClock.Instant) -> Bool {
        while let first = output.first {
            let count = first.withUnsafeBytes {
                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            (lastProgress, lastSent) = (now, now)
            if count == first.count {
                output.removeFirst()
            } else {
                output[0] = first.dropFirst(count)
            }
        }
        return true
    }

    /// Reads what has arrived into `input`, through `buffer`.
    /// - Returns: False when the client closed its end or the connection failed.
    mutating func receive(into buffer: inout [UInt8], now: ContinuousClock.Instant) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes {
                recv(socket, $0.baseAddress, $0.count, 0)
            }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            guard count > 0 else { return false }
            lastProgress = now
            // An event stream has nothing more to read: what a client sends is dropped.
            guard !isEventStream else { continue }
            if input.isEmpty { requestBegan = now }
            input += buffer[..<count]
            // A request's head has a limit; what is past it is read once this one is answered.
            if input.count > HTTPRequest.maximumHeaderBytes + HTTPRequest.maximumRequestLine {
                return true
            }
        }
    }
}
