/// What the previous build wrote: each file's path, the hash of its bytes and the hash of
/// the inputs that produced it. Kept in the output folder's marker file, so it always
/// describes the folder it sits in.
public struct BuildManifest: Sendable, Equatable {
    /// Bumped whenever rendering changes in a way input hashes cannot see.
    static let formatVersion = "fruitsite-manifest 1 \(generatorVersion)"
    /// The generator's version: a new fruitsite invalidates every page.
    public static let generatorVersion = "0.1.0"

    public struct Entry: Sendable, Equatable {
        /// Hash of the template, its source and its data; nil for files copied as they are.
        public var inputHash: UInt64?
        public var outputHash: UInt64
    }

    public var entries: [String: Entry]

    public init(entries: [String: Entry] = [:]) {
        self.entries = entries
    }

    /// Reads a manifest written by `text`; nil when it is missing, damaged or from another
    /// version, which makes the next build a clean one.
    init?(text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        // The marker's first line is a sentence for people; the header follows it.
        guard lines.count >= 2, lines.dropFirst().first.map(String.init) == Self.formatVersion
        else {
            return nil
        }
        lines = lines.dropFirst(2)
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(lines.count)
        for line in lines {
            let fields = line.split(separator: " ", maxSplits: 2)
            guard fields.count == 3, let output = UInt64(fields[0], radix: 16) else { return nil }
            entries[String(fields[2])] = Entry(
                inputHash: fields[1] == "-" ? nil : UInt64(fields[1], radix: 16), outputHash: output
            )
        }
        self.entries = entries
    }

    /// The marker file's text: the sentence, the header, then one line per file, sorted.
    func text(marker: String) -> String {
        var text = marker + Self.formatVersion + "\n"
        for path in entries.keys.sorted() {
            let entry = entries[path]!
            let input = entry.inputHash.map { String($0, radix: 16) } ?? "-"
            text += "\(String(entry.outputHash, radix: 16)) \(input) \(path)\n"
        }
        return text
    }
}
