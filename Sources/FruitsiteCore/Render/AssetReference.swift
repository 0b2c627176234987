/// A reference one asset makes to another by a relative address, which the asset's stamped
/// copy writes with the other's stamped name (see `AssetNames`).
///
/// Found by a scan of the asset's text, not a parse (docs/how-to/theme.md, "What loads what"):
/// - in `.js` and `.mjs` files, the string literal of a static `import … from '…'`,
///   `import '…'`, `export … from '…'` (`export {…} from`, `export * from`, `export * as x
///   from`) and of a dynamic `import('…')` whose one argument is that literal, when it starts
///   with `./` or `../` (bare names are packages). Comments, strings, template literals and
///   regular expression literals are skipped, the last told from a division by the token
///   before the `/`, as tokenizers do. Not rewritten: any other string (`new URL('./x.js',
///   import.meta.url)`, `new Worker('./w.js')`, `fetch`), an `import()` of anything but one
///   literal, and a literal with an escape (`\u002e/x.js`);
/// - in `.css` files, every `url(…)` (quoted or not) and the string of an `@import '…'`,
///   when the address has no scheme and does not start with `/` or `#`. Not rewritten: the
///   strings of `image-set()`, addresses with an escape, and `url()` inside a comment or a
///   string.
///
/// An address names an asset when, with its `?query` or `#fragment` left out and resolved
/// against the asset's folder, it is the path of another asset, byte for byte (no
/// percent-escapes are decoded); the query and fragment are kept.
struct AssetReference: Sendable, Equatable {
    /// The bytes of the address's path in the asset: the part that names the file, without
    /// a query or fragment.
    var range: Range<Int>
    /// The path of the asset it names, below the output folder (`assets/fruit-filter.js`).
    var target: String
    /// Where the address starts in the asset: 1-based, the column in Unicode scalars.
    var line: Int
    var column: Int

    /// The references `asset` makes to the assets at `paths`, in the order they are written.
    static func find(in asset: RenderedPage, among paths: Set<String>) -> [AssetReference] {
        let name = asset.path.split(separator: "/").last ?? ""
        let addresses: [Range<Int>]
        let isRelative: (ArraySlice<UInt8>) -> Bool
        if name.hasSuffix(".js") || name.hasSuffix(".mjs") {
            var scanner = JavaScriptScanner(bytes: asset.bytes)
            addresses = scanner.moduleSpecifiers()
            isRelative = { $0.starts(with: "./".utf8) || $0.starts(with: "../".utf8) }
        } else if name.hasSuffix(".css") {
            var scanner = CSSScanner(bytes: asset.bytes)
            addresses = scanner.addresses()
            isRelative = { address in
                guard let first = address.first, first != UInt8(ascii: "/"),
                    first != UInt8(ascii: "#")
                else { return false }
                return !hasScheme(address)
            }
        } else {
            return []
        }
        let folder = asset.path.split(separator: "/", omittingEmptySubsequences: false)
            .dropLast()
        var references: [AssetReference] = []
        for range in addresses {
            let address = asset.bytes[range]
            guard isRelative(address), !address.contains(UInt8(ascii: "\\")) else { continue }
            let pathEnd =
                address.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? address.endIndex
            let path = String(decoding: address[..<pathEnd], as: UTF8.self)
            guard let last = path.split(separator: "/", omittingEmptySubsequences: false).last,
                !last.isEmpty, last != ".", last != "..",
                let target = resolve(path, from: folder), paths.contains(target)
            else { continue }
            let (line, column) = position(of: range.lowerBound, in: asset.bytes)
            references.append(
                AssetReference(
                    range: range.lowerBound..<pathEnd, target: target, line: line,
                    column: column))
        }
        return references
    }

    /// `address` resolved against `folder`'s parts: nil when it climbs above the output
    /// folder.
    private static func resolve(_ address: String, from folder: ArraySlice<Substring>)
        -> String?
    {
        var parts = Array(folder)
        for part in address.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// Whether `address` starts with a URL scheme (`https:`, `data:`).
    private static func hasScheme(_ address: ArraySlice<UInt8>) -> Bool {
        guard let colon = address.firstIndex(of: UInt8(ascii: ":")),
            let first = address.first, isLetter(first)
        else { return false }
        return address[..<colon].allSatisfy { byte in
            isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte | 0x20)
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset` of UTF-8 `bytes`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var (line, column) = (1, 1)
        for byte in bytes[..<offset] {
            if byte == UInt8(ascii: "\n") {
                (line, column) = (line + 1, 1)
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
