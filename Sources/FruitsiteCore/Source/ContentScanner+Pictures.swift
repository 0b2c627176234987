import Foundation

extension ContentScanner {
    /// The largest picture file read: a photo straight from a camera is some tens of MB.
    static let maximumPictureSize = 128 << 20

    /// The picture an entry's `image:` names, read: its file, found from the entry's folder
    /// and inside the content folder, hashed, its header read and its placeholder made.
    /// Decoded at a few pixels only: its variants are encoded later, and only when the cache
    /// lacks them.
    /// - Returns: The picture, and its file with the status it had just before it was read,
    ///   which the entry records: a build reads the entry again once that changes.
    /// - Throws: `BuildFailure` with the error, at the place `src:` is written.
    func picture(_ reference: FruitParser.ImageReference, of entry: String) throws(BuildFailure)
        -> (image: FruitImage, file: SiteModel.PictureFile)
    {
        let fail = { (message: String, hint: String?) in
            BuildFailure([.error(at: reference.location, message, hint: hint)])
        }
        guard let path = Self.picturePath(reference.source, from: entry, in: contentDirectory)
        else {
            throw fail(
                "'image.src' leads outside the content folder: '\(reference.source)'",
                "keep pictures in '\(contentDirectory)', beside their entries")
        }
        let status = fileSystem.status(path)
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.read(path, Self.maximumPictureSize)
        } catch UnreadableFile.tooLarge(let size, let limit) {
            throw fail(
                "the picture '\(path)' is \(UnreadableFile.describe(size, over: limit))",
                "scale it down; the largest variant is a few hundred KB")
        } catch {
            throw fail("cannot read the picture '\(path)': \(error)", nil)
        }
        let source = Data(bytes)
        do {
            let (header, placeholder) = try PictureEncoder().describe(
                source, allowsScripts: parser.markdown.allowsRawHTML)
            // The source and its decoding, freed, were megabytes the allocator would keep.
            defer { FreedMemory.giveBack() }
            let image = FruitImage(
                path: path, alt: reference.alt, sourceHash: StableHasher.hash(bytes),
                header: header, placeholder: placeholder)
            return (image, SiteModel.PictureFile(path: path, status: status))
        } catch {
            guard case .svg(let line, let column, let message) = error.reason else {
                throw fail("cannot use the picture '\(path)': \(error)", nil)
            }
            // Where it is in the drawing, which is what must change.
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: path, line: line, column: column), message)
            ])
        }
    }

    /// `source` read from the folder of the entry at `entry`, with `.` and `..` taken away;
    /// nil when it starts with `/` or leads out of `content` (entries are listed as
    /// `content/…`, whatever its spelling).
    static func picturePath(_ source: String, from entry: String, in content: String) -> String? {
        let root = content + "/"
        guard !source.hasPrefix("/"), entry.hasPrefix(root) else { return nil }
        var parts = entry.dropFirst(root.count).split(separator: "/").dropLast().map(String.init)
        for part in source.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(String(part))
            }
        }
        return root + parts.joined(separator: "/")
    }

    /// The entries a watcher's `paths` lead to, in order: the entries among them, and those
    /// whose pictures are among them, which must be read again as if they had changed. The
    /// entries' pictures are looked up only when a path under the content folder is not an
    /// entry's.
    func entryPaths(reported paths: Set<String>, in model: SiteModel) -> [String] {
        var entries = paths.filter(isEntryPath)
        let others = paths.filter { isUnderContent($0) && !isEntryPath($0) }
        if !others.isEmpty {
            for id in model.ids {
                if let picture = model[id].picture, others.contains(picture.path) {
                    entries.insert(model[id].path)
                }
            }
        }
        return entries.sorted()
    }
}
