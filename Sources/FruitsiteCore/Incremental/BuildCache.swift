import Foundation

/// The folder where a build keeps what lets the next one skip work (`.fruitsite-cache/` by
/// default). For each output folder it holds two files, named after the folder: the
/// manifest of what was written there, and the content as that build saw it.
///
/// It stays outside the output folder, which is published: the entries include drafts.
/// Every file starts with a header naming its format and the fruitsite that wrote it, and a
/// file whose header differs, or that is damaged, is ignored: the build then does more work,
/// never wrong work.
struct BuildCache: Sendable {
    /// The cache folder as the user named it.
    var directory: String
    /// The output folder's absolute path.
    var output: String

    private var name: String {
        var hasher = StableHasher()
        hasher.combine(output)
        return directory + "/" + String(hasher.value, radix: 16)
    }

    // MARK: - Manifest

    /// The manifest of what the last build wrote into the output folder, when its id is
    /// `id`, the one the folder's marker records.
    func manifest(id: UInt64) -> StoredManifest? {
        read(name + ".manifest", header: manifestHeader) {
            StoredManifest(bytes: $0, from: $1)
        }.flatMap { $0.id == id ? $0 : nil }
    }

    func save(_ manifest: BuildManifest) throws {
        var writer = ByteWriter()
        writer.bytes += manifestHeader.utf8
        manifest.encoded(into: &writer)
        try write(writer.bytes, to: name + ".manifest")
    }

    private var manifestHeader: String {
        "fruitsite-manifest 3 \(Generator.identity) output=\(output)\n"
    }

    // MARK: - Entries

    /// The content as the last build into the output folder saw it, parsed with the same
    /// settings.
    func entries(rawHTML: Bool) -> EntryCache? {
        read(name + ".entries", header: EntryCache.header(rawHTML: rawHTML)) {
            EntryCache(bytes: $0, from: $1)
        }
    }

    /// Saves bytes made by `EntryCache.encode`.
    func saveEntries(_ bytes: [UInt8]) throws {
        try write(bytes, to: name + ".entries")
    }

    // MARK: - Patching in place

    /// A rebuild that changed a few pages updates both files in place rather than writing
    /// them whole. First the manifest's id is cleared, so that until the patches are all
    /// written the manifest names no output, and a build cut short makes the next one clean;
    /// each file's id is written last.
    func invalidateManifest(_ manifest: StoredManifest) throws {
        try patch(name + ".manifest", [(manifest.start, [UInt8](repeating: 0, count: 8))])
    }

    func patchManifest(_ writes: [(offset: Int, bytes: [UInt8])]) throws {
        try patch(name + ".manifest", writes)
    }

    func patchEntries(_ writes: [(offset: Int, bytes: [UInt8])]) throws {
        try patch(name + ".entries", writes)
    }

    private func patch(_ path: String, _ writes: [(offset: Int, bytes: [UInt8])]) throws {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.last }
        defer { close(descriptor) }
        for (offset, bytes) in writes {
            let written = bytes.withUnsafeBytes {
                pwrite(descriptor, $0.baseAddress!, $0.count, off_t(offset))
            }
            guard written == bytes.count else { throw SystemError.last }
        }
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
            guard rename(temporary, path) == 0 else { throw SystemError.last }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
