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
        /// A Server-Sent Events stream, which has told the page up to `sent`; `page` is the
        /// path of the page's file in the site, when the stream names one.
        case events(sent: Int, page: String?)
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

    /// Queues `head` and `body`, which are sent together.
    mutating func queue(head: [UInt8], body: ArraySlice<UInt8>) {
        output.append(ArraySlice(head))
        if !body.isEmpty { output.append(body) }
    }

    /// Sends what the socket takes now, the queued pieces in one call each time, so that a
    /// head and its body leave together.
    /// - Returns: False when the connection failed (the client has gone).
    mutating func flush(now: ContinuousClock.Instant) -> Bool {
        while !output.isEmpty {
            let pieces = output.prefix(8)
            let count = Self.send(pieces, to: socket)
            if count < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK
            }
            (lastProgress, lastSent) = (now, now)
            var sent = count
            while sent > 0, let first = output.first {
                if sent >= first.count {
                    output.removeFirst()
                    sent -= first.count
                } else {
                    output[0] = first.dropFirst(sent)
                    sent = 0
                }
            }
        }
        return true
    }

    /// `sendmsg` of `pieces` as one gather write, never raising SIGPIPE.
    private static func send(_ pieces: ArraySlice<ArraySlice<UInt8>>, to socket: Int32) -> Int {
        var vectors: [iovec] = []
        vectors.reserveCapacity(pieces.count)
        // The pointers stay valid for the call: `pieces` holds the arrays, none of which
        // changes meanwhile.
        func gather(_ index: Int) -> Int {
            guard index < pieces.endIndex else {
                return vectors.withUnsafeMutableBufferPointer { buffer in
                    var message = msghdr()
                    message.msg_iov = buffer.baseAddress
                    message.msg_iovlen = buffer.count
                    return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
                }
            }
            return pieces[index].withUnsafeBytes { bytes in
                vectors.append(
                    iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                        iov_len: bytes.count))
                return gather(index + 1)
            }
        }
        return gather(pieces.startIndex)
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
            // A read that did not fill the buffer took all there was: no second call to learn so.
            let isAll = count < buffer.count
            // An event stream has nothing more to read: what a client sends is dropped.
            guard !isEventStream else {
                if isAll { return true }
                continue
            }
            if input.isEmpty { requestBegan = now }
            input += buffer[..<count]
            if isAll { return true }
            // A request's head has a limit; what is past it is read once this one is answered.
            if input.count > HTTPRequest.maximumHeaderBytes + HTTPRequest.maximumRequestLine {
                return true
            }
        }
    }
}
