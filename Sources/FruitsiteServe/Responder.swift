import Foundation
import FruitsiteCore

/// Answers one request from the served site: the HTTP rules of `fruitsite serve`, apart from
/// sockets, so tests can check them directly.
struct Responder: Sendable {
    /// Where the site is mounted: `/`, or `/sub/path/` with `--base-path`.
    var basePath: String
    /// Tells this server's ETags from a previous run's, whose revisions started at 1 too.
    var instance: String
    /// The names a request may ask for in its `Host`.
    var hosts: AllowedHosts

    /// Where open pages listen for updates, under the base path.
    static let eventsPath = "__fruitsite/events"

    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        /// A slice of the served file's bytes where it can be: no client gets a copy.
        var body: ArraySlice<UInt8> = []

        /// A response whose body is its status in words, as plain text.
        static func plain(_ status: Int, headers: [(name: String, value: String)] = [])
            -> Response
        {
            Response(
                status: status,
                headers: [("Content-Type", "text/plain; charset=utf-8")] + headers,
                body: ArraySlice("\(status) \(reason(status))\n".utf8))
        }

        static func reason(_ status: Int) -> String {
            switch status {
            case 200: "OK"
            case 206: "Partial Content"
            case 301: "Moved Permanently"
            case 302: "Found"
            case 304: "Not Modified"
            case 400: "Bad Request"
            case 403: "Forbidden"
            case 404: "Not Found"
            case 405: "Method Not Allowed"
            case 414: "URI Too Long"
            case 416: "Range Not Satisfiable"
            case 431: "Request Header Fields Too Large"
            case 505: "HTTP Version Not Supported"
            default: "Error"
            }
        }
    }

    static let methodNotAllowed = Response.plain(405, headers: [("Allow", "GET, HEAD")])

    /// 403 for a request naming a host this server does not answer to, saying how to allow
    /// it; nil for any other. 403 as Vite and webpack-dev-server answer: the request is
    /// understood and refused, where 421 would invite a retry that gets the same answer.
    func refusal(of request: HTTPRequest) -> Response? {
        guard let authority = request.authority, !hosts.allows(authority) else { return nil }
        let name = authority.hasPrefix("[") ? authority : String(authority.prefix { $0 != ":" })
        return Response(
            status: 403,
            headers: [
                ("Content-Type", "text/plain; charset=utf-8"),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: ArraySlice(
                ("403 Forbidden: fruitsite serve does not answer to the host '\(name)'; "
                    + "--allow-host \(name) lets it\n").utf8))
    }

    func respond(to request: HTTPRequest, in site: ServedSite) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            return Self.methodNotAllowed
        }
        switch RequestPath(target: request.target, basePath: basePath) {
        case .refused:
            return .plain(400)
        case .basePath(let query):
            return Response(
                status: 301, headers: [("Location", RequestPath.encoded(basePath) + query)])
        case .outsideBasePath:
            return notFound(in: site)
        case .site(let path, let query):
            let key = Self.file(at: path)
            if let file = site.files[key] {
                return serve(file, at: key, in: site, request: request)
            }
            // A folder named without its final slash: relative links need the slash.
            if site.files[path + "/index.html"] != nil {
                let location = RequestPath.encoded(basePath + path + "/") + query
                return Response(status: 301, headers: [("Location", location)])
            }
            // A fruit renamed since the server started: its old address leads to its page,
            // for now only (the name may be taken again), as long as the page is there; the
            // old folder named without its final slash too.
            let folder =
                key.hasSuffix("/index.html") ? String(key.dropLast("index.html".count)) : path + "/"
            if let moved = site.moves[folder], site.files[moved + "index.html"] != nil {
                let location = RequestPath.encoded(basePath + moved) + query
                return Response(
                    status: 302, headers: [("Location", location), ("Cache-Control", "no-store")])
            }
            return notFound(in: site)
        }
    }

    /// The file a path inside the site names: a folder's `index.html`, or the path itself.
    static func file(at path: String) -> String {
        path.isEmpty || path.hasSuffix("/") ? path + "index.html" : path
    }

    /// The file of the page an event stream's `?page=` names (the page's `location.pathname`,
    /// which the reload script sends as it is): nil when it names none inside the site.
    func page(named query: String) -> String? {
        guard query.hasPrefix("?page="),
            case .site(let path, _) = RequestPath(
                target: String(query.dropFirst("?page=".count)), basePath: basePath)
        else { return nil }
        return Self.file(at: path)
    }

    private func serve(
        _ file: ServedSite.File, at path: String, in site: ServedSite, request: HTTPRequest
    ) -> Response {
        let type = Self.contentType(of: path)
        let isHTML = type.hasPrefix("text/html")
        // HTML carries the reload script of the current version and the errors, if any.
        let tag = isHTML ? "\(file.revision).\(site.version)" : "\(file.revision)"
        let etag = "\"\(instance)-\(tag)\""
        var headers: [(name: String, value: String)] = [
            ("Content-Type", type), ("ETag", etag),
            ("Cache-Control", isHTML ? "no-store" : "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
        ]
        let validators = request.header("if-none-match")?.split(separator: ",").map { tag in
            tag.filter { $0 != " " }.replacingPrefix("W/")
        }
        if validators?.contains(etag) == true || validators?.contains("*") == true {
            return Response(status: 304, headers: headers)
        }
        if isHTML {
            let body = injected(into: file.bytes, site: site)
            headers.append(("Content-Length", String(body.count)))
            return Response(status: 200, headers: headers, body: body[...])
        }
        // One byte range, as media players ask to seek (an `If-Range` naming another
        // version asks for the whole file); several ranges get the whole file too.
        headers.append(("Accept-Ranges", "bytes"))
        let total = file.bytes.count
        if let range = request.header("range"),
            request.header("if-range").map({ $0 == etag }) ?? true
        {
            switch Self.byteRange(range, count: total) {
            case .whole:
                break
            case .part(let part):
                headers += [
                    ("Content-Range", "bytes \(part.lowerBound)-\(part.upperBound)/\(total)"),
                    ("Content-Length", String(part.count)),
                ]
                return Response(status: 206, headers: headers, body: file.bytes[part])
            case .unsatisfiable:
                return Response(
                    status: 416, headers: headers + [("Content-Range", "bytes */\(total)")])
            }
        }
        headers.append(("Content-Length", String(total)))
        return Response(status: 200, headers: headers, body: file.bytes[...])
    }

    enum ByteRange: Equatable {
        case whole
        case part(ClosedRange<Int>)
        case unsatisfiable
    }

    /// The one range of a `Range` header (`bytes=0-99`, `bytes=100-`, `bytes=-100`) within
    /// `count` bytes (RFC 9110, 14.1.2); `.whole` for several ranges or a header that is not
    /// one, which is then ignored. Numbers too large for an `Int` are as large as one: an end
    /// past the file still ends at its last byte, and such a start is past it.
    static func byteRange(_ header: String, count: Int) -> ByteRange {
        let header = header.trimmingCharacters(in: .whitespaces)
        guard header.lowercased().hasPrefix("bytes="), !header.contains(",") else { return .whole }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        let number = { (text: Substring) -> Int? in
            text.isEmpty || !text.allSatisfy(\.isASCII) || !text.allSatisfy(\.isNumber)
                ? nil : Int(text) ?? .max
        }
        guard parts.count == 2 else { return .whole }
        if parts[0].isEmpty {
            // The last n bytes.
            guard let length = number(parts[1]) else { return .whole }
            guard length > 0, count > 0 else { return .unsatisfiable }
            return .part(max(0, count - length)...(count - 1))
        }
        guard let first = number(parts[0]) else { return .whole }
        let last = parts[1].isEmpty ? Int.max : number(parts[1])
        guard let last, last >= first else { return .whole }
        guard first < count else { return .unsatisfiable }
        return .part(first...min(last, count - 1))
    }

    private func notFound(in site: ServedSite) -> Response {
        guard let page = site.files["404.html"] else {
            return Response(
                status: 404,
                headers: [
                    ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ],
                body: injected(
                    into: Array(
                        "<!doctype html><title>Not found</title><body><h1>Not found</h1></body>"
                            .utf8), site: site)[...])
        }
        let body = injected(into: page.bytes, site: site)
        return Response(
            status: 404,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("Content-Length", String(body.count)),
            ], body: body[...])
    }

    // MARK: - What HTML pages get

    /// `html` with the reload script, and the errors' overlay when the last update failed,
    /// inserted before the last `</body>` (or at the end).
    func injected(into html: [UInt8], site: ServedSite) -> [UInt8] {
        var insertion =
            "<script data-fruitsite>\(Self.reloadScript(events: RequestPath.encoded(basePath + Self.eventsPath), version: site.version, instance: instance))</script>"
        if !site.errors.isEmpty {
            insertion = Self.overlay(site.errors, hasBuilt: site.hasBuilt) + insertion
        }
        let closing = Array("</body>".utf8)
        var index = html.count
        if html.count >= closing.count {
            for start in stride(from: html.count - closing.count, through: 0, by: -1)
            where html[start] == UInt8(ascii: "<")
                && html[start..<start + closing.count].elementsEqual(closing)
            {
                index = start
                break
            }
        }
        var result = html
        result.insert(contentsOf: Array(insertion.utf8), at: index)
        return result
    }

    /// Listens for updates past the version this page shows, on a stream that names the page:
    /// swaps stylesheets when only they changed since, and otherwise shows the new page (and
    /// the new stylesheets, when they changed too). A renamed fruit's page takes its new
    /// address (`history.replaceState`), listens as that page, and shows it as any other. A page with no
    /// script of its own (a fruit page; JSON data blocks such as JSON-LD do not count) is
    /// refreshed in place: its new HTML is fetched and
    /// its body and head swapped in, stylesheets kept, and the attributes of `<html>` (`lang`
    /// and `dir`) made the new page's, which shows an edit in a fraction of a
    /// reload's time. Stylesheets are swapped by pointing each link where the new HTML's
    /// does: at a stylesheet's new stamped name, or at the same name with `?v=` the version,
    /// which the cache does not hold. A page that is gone shows the 404 page the same way. A
    /// page with scripts, one moved (a renamed fruit whose update it missed: the server
    /// redirects) or one that links more or fewer stylesheets than before is reloaded (a
    /// renamed fruit's at its new address).
    static func reloadScript(events: String, version: Int, instance: String) -> String {
        """
        (()=>{let v=\(version),latest=0,s;\
        const own='script:not([data-fruitsite]):not([type$="json"])',sheet='link[rel="stylesheet"]';\
        const links=d=>[...d.querySelectorAll(sheet)],bumped=h=>{const u=new URL(h,location.href);\
        u.searchParams.set("v",v);return u.href};\
        const update=async(swap,styled)=>{if(swap&&document.querySelector(own))return false;const mine=++latest;\
        const r=await fetch(location.href,{cache:"no-store"});if(!r.ok&&r.status!==404||r.redirected)return false;\
        const n=new DOMParser().parseFromString(await r.text(),"text/html"),now=links(document),next=links(n);\
        if(mine!==latest){if(styled)for(const l of now)l.href=bumped(l.href);return true}\
        if(swap&&n.querySelector(own)||now.length!==next.length)return false;\
        if(swap){for(const e of[...document.head.children])if(!e.matches(sheet))e.remove();\
        for(const e of[...n.head.children])if(!e.matches(sheet))document.head.append(e);\
        const h=document.documentElement,a=n.documentElement;\
        for(const t of[...h.attributes])if(!a.hasAttribute(t.name))h.removeAttribute(t.name);\
        for(const t of a.attributes)h.setAttribute(t.name,t.value);document.body.replaceWith(n.body)}\
        now.forEach((l,i)=>{const u=new URL(next[i].getAttribute("href")??"",location.href),o=new URL(l.href);\
        o.searchParams.delete("v");if(o.href!==u.href)l.href=u.href;else if(styled)l.href=bumped(u.href)});return true};\
        const listen=()=>{s=new EventSource("\(events)?page="+location.pathname);s.onmessage=async(e)=>{const d=JSON.parse(e.data);\
        if(d.instance!=="\(instance)"){s.close();location.reload();return}if(d.version<=v)return;\
        const since=v;v=d.version;const swap=d.pages>since,styled=d.styles>since;if(!swap&&!styled)return;\
        if(swap&&d.to&&location.pathname===d.from){s.close();history.replaceState(history.state,"",d.to+location.search+location.hash);listen()}\
        if(!await update(swap,styled).catch(()=>false)){s.close();location.reload()}}};listen()})()
        """
    }

    static func overlay(_ errors: [String], hasBuilt: Bool) -> String {
        let text = MarkupText.escaped(errors.joined(separator: "\n"))
        let headline =
            hasBuilt
            ? "The last change did not build; this is the last good site."
            : "The site does not build yet; it appears once these are fixed."
        return """
            <div id="fruitsite-errors" role="alert" style="position:fixed;inset:0;z-index:2147483647;\
            overflow:auto;margin:0;padding:2rem;background:rgba(20,20,20,.95);color:#fff;\
            font:14px/1.5 ui-monospace,monospace"><p style="margin:0 0 1rem;font-weight:bold;\
            color:#ff8080">\(headline)</p>\
            <pre style="white-space:pre-wrap;margin:0">\(text)</pre></div>
            """
    }

    // MARK: - Content types

    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.contains(".") ? String(name.split(separator: ".").last!).lowercased() : ""
        return contentTypes[ext] ?? "application/octet-stream"
    }

    private static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json",
        "xml": "application/xml", "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "webmanifest": "application/manifest+json",
        "map": "application/json", "pdf": "application/pdf", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "csv": "text/csv; charset=utf-8",
        "md": "text/markdown; charset=utf-8", "mp4": "video/mp4", "webm": "video/webm",
        "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav", "m4a": "audio/mp4",
        "zip": "application/zip", "gz": "application/gzip",
    ]
}

extension String {
    fileprivate func replacingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
