import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which fruitsite made a build. What a build keeps for the next one (the saved site model)
/// and every page's input hash are tied to it, so a new fruitsite starts afresh.
public enum Generator {
    /// The release version, which `fruitsite --version` prints.
    public static let version = "0.1.0"

    /// The version plus an id of the running executable's code: a fruitsite rebuilt from
    /// changed sources counts as a new generator even before its version number moves, so no
    /// page made by older code survives a rebuild.
    ///
    /// The id depends on the executable's bytes only, never on when or where it was copied:
    /// two copies of one binary write the same markers. It is the linker's build id (a hash
    /// of the code, in an ELF note, read in a few small reads), or else a hash of the whole
    /// file.
    static let identity: String = {
        #if os(Linux)
            // The running executable, opened by the kernel's own link to it: asking
            // `Bundle.main` for its path lists the executable's folder twice: beside
            // `.build/release`, 5.6M instructions, about 6% of a one-edit rebuild at 10,000
            // entries.
            if let id = buildID(of: "/proc/self/exe") { return "\(version) build-\(id)" }
        #endif
        guard let executable = Bundle.main.executablePath else { return version }
        if let id = buildID(of: executable) { return "\(version) build-\(id)" }
        guard let bytes = try? FileSystem.readBytes(executable) else { return version }
        return "\(version) hash-\(String(StableHasher.hash(bytes), radix: 16))"
    }()

    /// The `NT_GNU_BUILD_ID` note of a 64-bit little-endian ELF file, in hex; nil for any
    /// other file.
    static func buildID(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        func read(_ count: Int, at offset: UInt64) -> [UInt8]? {
            guard count > 0, count <= 1 << 16, offset < 1 << 40 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress, count, off_t(offset))
            }
            return read == count ? bytes : nil
        }
        func integer(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> UInt64 {
            (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
        }
        guard let header = read(64, at: 0), header.starts(with: [0x7F, 0x45, 0x4C, 0x46]),
            header[4] == 2, header[5] == 1
        else { return nil }
        let tableOffset = integer(header, 0x20, 8)
        let entrySize = Int(integer(header, 0x36, 2))
        let entryCount = Int(integer(header, 0x38, 2))
        guard entrySize >= 0x28, let table = read(entrySize * entryCount, at: tableOffset) else {
            return nil
        }
        for index in 0..<entryCount where integer(table, index * entrySize, 4) == 4 {  // PT_NOTE
            let start = index * entrySize
            guard
                let notes = read(
                    Int(integer(table, start + 0x20, 8)), at: integer(table, start + 8, 8))
            else { continue }
            var offset = 0
            while offset + 12 <= notes.count {
                let nameSize = Int(integer(notes, offset, 4))
                let descriptionSize = Int(integer(notes, offset + 4, 4))
                let type = integer(notes, offset + 8, 4)
                let descriptionStart = offset + 12 + (nameSize + 3) & ~3
                guard descriptionStart + descriptionSize <= notes.count else { break }
                if type == 3, nameSize == 4,
                    notes[offset + 12..<offset + 15].elementsEqual("GNU".utf8)
                {
                    return notes[descriptionStart..<descriptionStart + descriptionSize]
                        .map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                }
                offset = descriptionStart + (descriptionSize + 3) & ~3
            }
        }
        return nil
    }
}
