import Foundation

/// The folder where a build keeps what lets the next one skip work (`.fruitsite-cache/` by
/// default): the parsed entries and, for each output folder, the manifest of what was
/// written there.
///
/// It stays outside the output folder, which is published: the entries include drafts.
/// Every file starts with a header naming its format and the fruitsite that wrote it, and a
/// file whose header differs, or that is damaged, is ignored: the build then does more work,
/// never wrong work.
struct BuildCache: Sendable {
    /// The cache folder as the user named it.
    var directory: String

    // MARK: - Entries

    private var entriesPath: String { directory + "/entries" }

    /// The entries the last build parsed with the same settings, if any.
    func entries(rawHTML: Bool) -> EntryCache? {
        read(entriesPath, header: EntryCache.header(rawHTML: rawHTML)) {
            EntryCache(decoding: $0, from: $1)
        }
    }

    func save(_ entries: EntryCache, rawHTML: Bool) throws {
        var writer = ByteWriter()
        writer.bytes += EntryCache.header(rawHTML: rawHTML).utf8
        entries.encoded(into: &writer)
        try write(writer.bytes, to: entriesPath)
    }

    // MARK: - Manifests

    /// The manifest of what the last build wrote into `output`, when its id is `id`, the
    /// one the folder's marker records.
    func manifest(for output: String, id: UInt64) -> BuildManifest? {
        read(manifestPath(for: output), header: Self.manifestHeader(output: output, id: id)) {
            BuildManifest(decoding: $0, from: $1)
        }
    }

    func save(_ manifest: BuildManifest, for output: String) throws {
        var writer = ByteWriter()
        writer.bytes += Self.manifestHeader(output: output, id: manifest.id).utf8
        manifest.encoded(into: &writer)
        try write(writer.bytes, to: manifestPath(for: output))
    }

    /// One manifest per output folder, named by a hash of its absolute path.
    private func manifestPath(for output: String) -> String {
        var hasher = StableHasher()
        hasher.combine(output)
        return directory + "/output-" + String(hasher.value, radix: 16)
    }

    private static func manifestHeader(output: String, id: UInt64) -> String {
        "fruitsite-manifest 2 \(Generator.identity) id=\(String(id, radix: 16)) output=\(output)\n"
    }

    // MARK: - Files

    private func read<Value>(
        _ path: String, header: String, decode: ([UInt8], Int) -> Value?
    ) -> Value? {
        guard let bytes = try? FileSystem.readBytes(path) else { return nil }
        let expected = Array(header.utf8)
        guard bytes.starts(with: expected) else { return nil }
        return decode(bytes, expected.count)
    }

    /// Writes by a rename, so a reader never sees half a file.
    private func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        let temporary = "\(path).tmp-\(getpid())"
        do {
            try OutputWriter.writeFile(temporary, bytes)
            guard rename(temporary, path) == 0 else {
                throw SystemError.last
            }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
