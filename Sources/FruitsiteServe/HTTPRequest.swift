/// One request read from a connection: the request line and the headers. Bodies are not
/// read: the server answers GET and HEAD only.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var target: String
    public var version: String
    /// Header names lowercased, in the order received.
    public var headers: [(name: String, value: String)]
    /// The host and port an absolute-form target names (`GET http://host:8000/a`), which
    /// stand for the `Host` header's (RFC 9112, 3.2.2).
    public var targetAuthority: String? = nil

    /// The host and port the client asked for: the target's, else the `Host` header's.
    public var authority: String? { targetAuthority ?? header("host") }

    /// The value of the first header named `name` (lowercase).
    public func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless the client
    /// says `close`, HTTP/1.0 only when it asks for `keep-alive`.
    public var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        return version == "HTTP/1.1" ? connection != "close" : connection == "keep-alive"
    }

    /// Whether the request announces a body, which the server does not read.
    var hasBody: Bool {
        contentLengths.contains { $0 != "0" } || header("transfer-encoding") != nil
    }

    /// Every `Content-Length` value, a list in one header (`5, 5`) counted as its items.
    private var contentLengths: [Substring] {
        headers.filter { $0.name == "content-length" }.flatMap { header in
            header.value.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.drop { $0 == " " || $0 == "\t" }.trimmingTrailingBlanks
            }
        }
    }

    /// Whether the body's end is in doubt: `Content-Length` values that differ, or one beside
    /// `Transfer-Encoding`. A proxy in front may pick another reading than this server's, and
    /// what it takes for a body this server would read as a request (RFC 9112, 6.3).
    var hasAmbiguousLength: Bool {
        let lengths = contentLengths
        return Set(lengths).count > 1 || !lengths.isEmpty && header("transfer-encoding") != nil
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.version == rhs.version
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
            && lhs.targetAuthority == rhs.targetAuthority
    }

    // MARK: - Parsing

    /// The longest request line accepted (414 beyond it) and the most header bytes (431).
    public static let maximumRequestLine = 8 * 1024
    public static let maximumHeaderBytes = 32 * 1024

    public enum Parsed: Equatable, Sendable {
        /// More bytes are needed.
        case incomplete
        /// A request, and how many bytes of the buffer it took.
        case request(HTTPRequest, length: Int)
        /// The bytes cannot become a request: answer with this status and close.
        case failure(status: Int)
    }

    /// Parses the request at the start of `bytes`: one empty line before it is passed over,
    /// as a client may end a request's body with one more.
    public static func parse(_ bytes: [UInt8]) -> Parsed {
        let blank =
            bytes.starts(with: [.carriageReturn, .lineFeed]) ? 2 : bytes.first == .lineFeed ? 1 : 0
        guard blank > 0 else { return parseHead(bytes) }
        let parsed = parseHead(Array(bytes[blank...]))
        guard case .request(let request, let length) = parsed else { return parsed }
        return .request(request, length: blank + length)
    }

    private static func parseHead(_ bytes: [UInt8]) -> Parsed {
        guard let headEnd = endOfHead(in: bytes) else {
            let requestLineLength = bytes.firstIndex(of: .lineFeed) ?? bytes.count
            if requestLineLength > maximumRequestLine { return .failure(status: 414) }
            if bytes.count - requestLineLength > maximumHeaderBytes {
                return .failure(status: 431)
            }
            return .incomplete
        }
        var lines = bytes[..<headEnd].split(
            separator: .lineFeed, omittingEmptySubsequences: false
        ).map { line in line.last == .carriageReturn ? line.dropLast() : line }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first, !requestLine.isEmpty else {
            return .failure(status: 400)
        }
        if requestLine.count > maximumRequestLine { return .failure(status: 414) }
        if headEnd - requestLine.count > maximumHeaderBytes { return .failure(status: 431) }
        let parts = requestLine.split(separator: .space, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = ascii(parts[0]), let target = ascii(parts[1]),
            let version = ascii(parts[2]), !method.isEmpty, let origin = originForm(target),
            method.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }),
            let (major, minor) = versionNumbers(version)
        else { return .failure(status: 400) }
        guard major == 1 else { return .failure(status: 505) }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: .colon), let name = ascii(line[..<colon]),
                !name.isEmpty, !name.contains(" "), !name.contains("\t")
            else { return .failure(status: 400) }
            let value = line[line.index(after: colon)...].drop { $0 == .space || $0 == .tab }
            // A bare CR, a NUL or another control character but HTAB is no part of a field
            // value (RFC 9110, 5.5): a server or proxy that reads it as a line end would see
            // another header than this one does.
            guard !value.contains(where: { ($0 < 0x20 && $0 != .tab) || $0 == 0x7F }) else {
                return .failure(status: 400)
            }
            headers.append(
                (
                    name.lowercased(),
                    String(String(decoding: value, as: UTF8.self).trimmingTrailingBlanks)
                ))
        }
        // A later HTTP/1 is answered as the latest this server speaks.
        let request = HTTPRequest(
            method: method, target: origin.target,
            version: minor == 0 ? "HTTP/1.0" : "HTTP/1.1", headers: headers,
            targetAuthority: origin.authority)
        // HTTP/1.1 requires one Host header (RFC 9112, 3.2).
        if request.version == "HTTP/1.1", headers.count(where: { $0.name == "host" }) != 1 {
            return .failure(status: 400)
        }
        if request.hasAmbiguousLength { return .failure(status: 400) }
        // A request whose body would follow cannot be delimited without reading it: the
        // connection is closed after the answer, 405 for a method that is never served.
        if request.hasBody {
            return .failure(status: method == "GET" || method == "HEAD" ? 400 : 405)
        }
        return .request(request, length: headEnd)
    }

    /// `HTTP/1.1` as (1, 1); nil when not of that shape.
    private static func versionNumbers(_ version: String) -> (Int, Int)? {
        let bytes = Array(version.utf8)
        let digit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        guard bytes.count == 8, version.hasPrefix("HTTP/"), digit(bytes[5]), bytes[6] == 0x2E,
            digit(bytes[7])
        else { return nil }
        return (Int(bytes[5] - 0x30), Int(bytes[7] - 0x30))
    }

    /// The target as a path and query: itself in origin form (`/a?b`), and the path and query
    /// of an absolute-form one (`http://host/a?b`), which servers must accept (RFC 9112,
    /// 3.2.2), with the authority it names. Nil for anything else; `*` is for OPTIONS, which
    /// is not served.
    private static func originForm(_ target: String) -> (target: String, authority: String?)? {
        if target.hasPrefix("/") { return (target, nil) }
        let lowercased = target.lowercased()
        guard let scheme = ["http://", "https://"].first(where: lowercased.hasPrefix) else {
            return nil
        }
        let rest = target.dropFirst(scheme.count)
        guard let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else {
            return ("/", String(rest))
        }
        let authority = String(rest[..<end])
        return (rest[end] == "/" ? String(rest[end...]) : "/" + rest[end...], authority)
    }

    /// Where the blank line that ends the head ends, or nil if it has not arrived.
    private static func endOfHead(in bytes: [UInt8]) -> Int? {
        var index = 0
        while let lineFeed = bytes[index...].firstIndex(of: .lineFeed) {
            let next = lineFeed + 1
            if next < bytes.count, bytes[next] == .lineFeed { return next + 1 }
            if next + 1 < bytes.count, bytes[next] == .carriageReturn,
                bytes[next + 1] == .lineFeed
            {
                return next + 2
            }
            index = next
        }
        return nil
    }

    /// Printable ASCII only: request lines and header names are never anything else.
    private static func ascii(_ bytes: ArraySlice<UInt8>) -> String? {
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension UInt8 {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")
}

extension StringProtocol {
    fileprivate var trimmingTrailingBlanks: Substring {
        var text = Substring(self)
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
