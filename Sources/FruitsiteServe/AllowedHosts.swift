#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The host names a request may ask for. A page on another site can point a name of its own
/// at 127.0.0.1 (DNS rebinding) and then read what `serve` answers, drafts included, as if
/// it were its own; the `Host` it sends is that name, which this refuses.
///
/// As Vite and webpack-dev-server decide: `localhost` and names under `.localhost` (which
/// always lead to this machine), any IP address (a page that can read one was opened at it),
/// the name `serve` was told to listen on, and the names given to allow more, `.example.org`
/// standing for `example.org` and every name under it.
public struct AllowedHosts: Sendable, Equatable {
    private var names: Set<String>

    /// The hosts for a server listening on `host`, and `extra` names besides.
    public init(listeningOn host: String, allowing extra: [String] = []) {
        names = Set(([host] + extra).map(Self.normalized))
    }

    /// Whether a request naming `authority` (a `Host` value: `name`, `name:port`, `[::1]:80`)
    /// is answered; a request with none (HTTP/1.0, which browsers never send) is.
    public func allows(_ authority: String?) -> Bool {
        guard let authority else { return true }
        let name: String
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]"),
                Self.isPort(authority[authority.index(after: close)...])
            else { return false }
            return Self.isAddress(
                String(authority[authority.index(after: authority.startIndex)..<close]),
                family: AF_INET6)
        }
        if let colon = authority.lastIndex(of: ":") {
            guard Self.isPort(authority[colon...]) else { return false }
            name = Self.normalized(String(authority[..<colon]))
        } else {
            name = Self.normalized(authority)
        }
        if name == "localhost" || name.hasSuffix(".localhost") || names.contains(name)
            || Self.isAddress(name, family: AF_INET)
        {
            return true
        }
        return names.contains { $0.hasPrefix(".") && ("." + name).hasSuffix($0) }
    }

    /// Lowercase, without a final dot or the brackets of an IPv6 address.
    private static func normalized(_ name: String) -> String {
        var name = Substring(name.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.hasSuffix("."), name.count > 1 { name = name.dropLast() }
        return String(name)
    }

    /// Empty, or `:` and digits.
    private static func isPort(_ text: Substring) -> Bool {
        text.isEmpty
            || text.first == ":" && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func isAddress(_ text: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(family, text, &buffer) == 1
    }
}
