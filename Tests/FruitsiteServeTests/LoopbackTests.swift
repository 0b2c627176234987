import Testing

@testable import FruitsiteServe

/// Whether the address a server binds stays on this machine, whatever the host's spelling:
/// `serve` warns about the others.
@Suite struct LoopbackTests {
    @Test(arguments: ["127.0.0.1", "127.1", "127.0.0.2", "localhost"])
    func aLoopbackAddressIsKnown(host: String) throws {
        #expect(try SiteServer(host: host, port: 0, basePath: "/").isLoopback)
    }

    @Test func anyAddressIsNotLoopback() throws {
        #expect(try !SiteServer(host: "0.0.0.0", port: 0, basePath: "/").isLoopback)
    }

    /// Skipped where the machine has no IPv6.
    @Test(arguments: ["::1", "::ffff:127.0.0.1", "::"])
    func anIPv6AddressIsKnownToo(host: String) {
        guard let server = try? SiteServer(host: host, port: 0, basePath: "/") else { return }
        #expect(server.isLoopback == (host != "::"))
    }
}
