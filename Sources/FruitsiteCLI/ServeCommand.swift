import Foundation
import FruitsiteCore
import FruitsiteServe

/// `fruitsite serve`: build the site into memory, serve it, and rebuild on every change.
struct ServeCommand {
    var options = BuildOptions()
    var host = "127.0.0.1"
    var port: Int?
    /// From `--base-path`; else the config's `baseURL` path decides.
    var basePath: String?
    /// From `--allow-host`: names a request may ask for besides the loopback ones.
    var allowedHosts: [String] = []
    var polls = false
    var wantsHelp: Bool

    init(_ arguments: [String]) throws(UsageError) {
        let scanner = try ArgumentScanner(
            arguments,
            spec: ArgumentScanner.Spec(
                valueOptions: [
                    "--content", "--templates", "--config", "--port", "--host", "--base-path",
                    "--allow-host",
                ],
                flags: ["--drafts", "--poll"]))
        if let extra = scanner.positionals.first {
            throw UsageError(message: "unexpected argument '\(extra)'")
        }
        options.contentDirectory = scanner.values["--content"] ?? options.contentDirectory
        options.templatesDirectory = scanner.values["--templates"] ?? options.templatesDirectory
        options.configPath = scanner.values["--config"]
        options.includeDrafts = scanner.has("--drafts")
        // The pictures `build` encoded, and keeps: serve's site is in memory, its pictures not.
        options.pictureCacheDirectory =
            options.pictureCacheDirectory
            ?? "\(CLI.cacheDirectory)/\(BuildOptions.pictureCacheFolder)"
        host = scanner.values["--host"] ?? host
        // `[::1]`, as addresses are written in URLs (and in the line serve prints).
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let text = scanner.values["--port"] {
            guard let number = Int(text), (0...65535).contains(number) else {
                throw UsageError(message: "--port must be a number from 0 to 65535, not '\(text)'")
            }
            port = number
        }
        if let text = scanner.values["--base-path"] {
            basePath = try Self.basePath(text)
        }
        for name in scanner.allValues["--allow-host"] ?? [] {
            guard
                name.unicodeScalars.allSatisfy({
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))
                        || "-._[]:".unicodeScalars.contains($0)
                })
            else {
                throw UsageError(
                    message: "--allow-host must be a host name such as mybox.local, not '\(name)'")
            }
            allowedHosts.append(name)
        }
        polls = scanner.has("--poll")
        wantsHelp = scanner.has("--help")
    }

    /// `/fruits/` from `fruits`, `/fruits` or `/fruits/`, its escapes decoded (`/früchte/` from
    /// `/fr%C3%BCchte/`, as `baseURL` writes it), refused as a request target would be.
    static func basePath(_ text: String) throws(UsageError) -> String {
        guard !text.contains(where: { $0 == "?" || $0 == "#" }),
            case .site(let path, _) = RequestPath(target: "/" + text, basePath: "/"),
            !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw UsageError(
                message: "--base-path must be a URL path such as /fruits/, not '\(text)'")
        }
        let segments = path.split(separator: "/")
        return segments.isEmpty ? "/" : "/" + segments.joined(separator: "/") + "/"
    }

    func run(on terminal: Terminal) -> CLI.ExitCode {
        if wantsHelp {
            terminal.standardOutput(HelpText.command("serve") ?? "")
            return .success
        }
        // A base URL's path is where the site lives, and its 404 page's links lead there.
        let configured = SiteBuilder(options: options).loadConfig().config.basePath
        let ownPath = (try? Self.basePath(configured)) ?? "/"
        let basePath = self.basePath ?? ownPath
        if basePath != ownPath && ownPath != "/" {
            terminal.printError(
                "warning: serving under \(RequestPath.encoded(basePath)), but baseURL puts the "
                    + "site under \(configured): the 404 page's links lead there")
        }
        let server: SiteServer
        do {
            server = try SiteServer(
                host: host, port: port, basePath: basePath, allowedHosts: allowedHosts)
        } catch {
            terminal.printError("error: \(error)")
            return .failure
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        if !server.isLoopback {
            terminal.printError(
                "warning: serving on \(shownHost): other machines on the network can see the site")
        }
        // Watching before the first build: an edit made while it runs (seconds, at 100,000
        // fruits) or just after it is served waits in the queue, not lost.
        let watcher = FolderWatcher(
            folders: [options.contentDirectory, options.templatesDirectory],
            files: [options.configPath ?? "fruitsite.yml"], polls: polls)
        if !polls && !watcher.usesNotifications {
            terminal.printError("note: inotify is unavailable here; looking for changes by polling")
        }
        var loop = UpdateLoop(
            site: SiteBuilder.LiveSite(builder: SiteBuilder(options: options)), server: server,
            watcher: watcher, terminal: terminal)
        loop.update(changing: nil)
        // The first build's errors too wait for their files to settle, before anything is
        // served: a site being written as serve starts is read whole.
        while loop.isHolding { loop.next() }
        server.start()
        terminal.print(
            "Serving at http://\(shownHost):\(server.port)\(RequestPath.encoded(basePath))")
        Self.stopOnSignals(terminal: terminal)
        while true { loop.next() }
    }

    private static func stopOnSignals(terminal: Terminal) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                terminal.printError("Stopped")
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Kept alive for the life of the process.
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
}
