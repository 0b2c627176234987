import Foundation

/// Keeps the site model between builds in the cache folder (`.fruitsite-cache/` by default),
/// in two files per output folder, named after the folder's absolute path: the model whole
/// (`.model`), and what changed since it was written whole (`.changes`).
///
/// A build that changed few entries writes the changes file only: the entries it changed or
/// added, the ids of those it removed, and the catalog's order, groups and outputs, which are
/// small. Writing every entry again had been the largest part of a one-edit rebuild. Once the
/// changes reach an eighth of the entries, the model is written whole again and the changes
/// file removed.
///
/// The cache stays outside the output folder, which is published: the model holds drafts.
/// Each file starts with a line naming its format, the fruitsite that wrote it and the output
/// folder, and ends with a hash of its body (`ChecksummedFile`); the body is the model whole
/// (`ModelCodec`) or the changes (`ChangesCodec`), which name the hash of the model file they
/// apply to. A file from another fruitsite, a damaged one, or changes beside another model
/// file than theirs are not used, and the build starts from an empty model, saying why
/// (`Unusable`).
struct ModelStore: Sendable {
    /// The cache folder as the user named it.
    var directory: String
    /// The output folder's absolute path.
    var output: String

    /// The files' name without its extension: a hash of the output folder's path, and of the
    /// language, for each language's model of a site in several (`LanguageScope`).
    private func name(_ language: String) -> String {
        var hasher = StableHasher()
        hasher.combine(output)
        if !language.isEmpty { hasher.combine(language) }
        return directory + "/" + String(hasher.value, radix: 16)
    }

    private func path(_ language: String) -> String { name(language) + ".model" }
    private func changesPath(_ language: String) -> String { name(language) + ".changes" }

    private var header: String { "\(Self.ownPrefix)output=\(output)\n" }

    /// How a model this fruitsite saved starts, for whichever output folder.
    private static var ownPrefix: String { "\(headerPrefix)24 \(Generator.identity) " }

    /// How every saved model starts, whichever fruitsite wrote it.
    private static let headerPrefix = "fruitsite-model "

    // MARK: - Loading

    /// The model saved by the build that wrote the output folder, or why it cannot be used:
    /// checked, and read as far as a build reads it before it knows what changed
    /// (`SavedModel`).
    /// - Parameters:
    ///   - markerID: The id the output folder's marker records, if any.
    ///   - settings: What this build is for; a model made for other settings is not used.
    func load(markerID: UInt64?, settings: SiteModel.Settings) -> Result<SavedModel, Unusable> {
        let bytes: ByteSlice
        let changes: ByteSlice?
        do {
            bytes = try ByteSlice.mapping(path(settings.scope.code))
            changes = try Self.mappingIfPresent(changesPath(settings.scope.code))
        } catch let error as SystemError where error == .noSuchFile {
            return .failure(.missing)
        } catch {
            return .failure(.unreadable(error))
        }
        let header = Array(header.utf8)
        guard bytes.starts(with: header) else {
            // Ours for another output folder (copied here), another fruitsite's, or damage.
            if bytes.starts(with: Array(Self.ownPrefix.utf8)) { return .failure(.forOtherOutput) }
            let isModel = bytes.starts(with: Array(Self.headerPrefix.utf8))
            return .failure(isModel ? .otherGenerator : .damaged)
        }
        guard var saved = ModelCodec.decode(bytes, from: header.count) else {
            return .failure(.damaged)
        }
        if let changes {
            guard changes.starts(with: header) else { return .failure(.damaged) }
            switch ChangesCodec.decode(changes, from: header.count, over: saved) {
            case .success(let changed): saved = changed
            case .failure(let reason): return .failure(reason)
            }
        }
        if let unusable = Unusable(made: saved.head.settings, wanted: settings) {
            return .failure(unusable)
        }
        guard let markerID, markerID == saved.head.id else { return .failure(.otherOutput) }
        return .success(saved)
    }

    /// The file at `path` mapped, or nil when there is none.
    private static func mappingIfPresent(_ path: String) throws -> ByteSlice? {
        do {
            return try ByteSlice.mapping(path)
        } catch let error as SystemError where error == .noSuchFile {
            return nil
        }
    }

    /// Why a saved model is not used: each is said with `--verbose`.
    enum Unusable: Error, CustomStringConvertible {
        case clean, noCacheFolder
        case missing, otherGenerator, forOtherOutput, damaged, changesForOtherModel
        case otherContent, otherDrafts, otherFacets, otherLimits, otherPictures, otherRawHTML,
            otherLanguage, otherOutput
        case unreadable(any Error)

        /// Why a model made with the settings `made` cannot become the site of `wanted`, or
        /// nil when it can: the one rule for a saved model and the one `serve` holds.
        init?(made: SiteModel.Settings, wanted: SiteModel.Settings) {
            if made.contentDirectory != wanted.contentDirectory {
                self = .otherContent
            } else if made.includesDrafts != wanted.includesDrafts {
                self = .otherDrafts
            } else if made.facets != wanted.facets {
                self = .otherFacets
            } else if made.maximumEntrySize != wanted.maximumEntrySize
                || made.maximumPageSize != wanted.maximumPageSize
            {
                self = .otherLimits
            } else if made.pictures != wanted.pictures {
                self = .otherPictures
            } else if made.allowsRawHTML != wanted.allowsRawHTML {
                self = .otherRawHTML
            } else if made.language != wanted.language || made.scope != wanted.scope {
                self = .otherLanguage
            } else {
                return nil
            }
        }

        var description: String {
            switch self {
            case .clean: "--clean was given"
            case .noCacheFolder: "no cache folder"
            case .missing: "there is no saved model for this output folder"
            case .unreadable(let error): "the saved model cannot be read: \(error)"
            case .otherGenerator: "the saved model was written by another fruitsite"
            // Its file's name is made from this output folder's path: only a copy, or damage
            // to the path written in it, makes it name another.
            case .forOtherOutput:
                "the saved model names another output folder (it was copied, or is damaged)"
            case .damaged: "the saved model is damaged"
            // A save removes the changes before it writes the model whole: only a hand, or a
            // copy, leaves them beside another.
            case .changesForOtherModel:
                "the saved model's changes file was made for another model file"
            case .otherContent: "the saved model was built from another content folder"
            case .otherDrafts: "the saved model was built with drafts set otherwise"
            case .otherFacets: "the saved model was built with other facets"
            case .otherLimits: "the saved model was built with another maxEntrySize or maxPageSize"
            case .otherPictures: "the saved model was built with other images settings"
            case .otherRawHTML: "the saved model was built with rawHTML set otherwise"
            case .otherLanguage: "the saved model was built for another language"
            case .otherOutput:
                "the output folder was not written by the build that saved the model "
                    + "(an earlier build was cut short, or the folder was replaced)"
            }
        }
    }

    // MARK: - Saving

    /// Saves `model` as the model of the output folder whose marker records `id`, with the
    /// report of the build that made it, each file by a rename, so a reader never sees half a
    /// file: as changes to the model file it was loaded from when it changed little since,
    /// else whole.
    ///
    /// A file is written as it is encoded, a few megabytes at a time: a large site's model is
    /// never in memory twice.
    func save(_ model: SiteModel, id: UInt64, report: Report) throws {
        try FileSystem.makeFolders(directory)
        let (path, changesPath) = (
            path(model.settings.scope.code), changesPath(model.settings.scope.code)
        )
        if let base = model.base {
            let removed = (EntryID(0)..<EntryID(base.count)).filter { model.entries[$0] == nil }
            let changed = model.ids.filter { model[$0].saved == nil }
            if removed.count + changed.count <= max(16, base.count / 8) {
                try ChecksummedFile.write(changesPath, header: header) { writer, flush in
                    try ChangesCodec.encode(
                        model, id: id, report: report, base: base, removed: removed,
                        changed: changed, into: &writer, flush: flush)
                }
                return
            }
        }
        // Changes never outlive the model file they were made for.
        if unlink(changesPath) != 0 && errno != ENOENT {
            throw PathError(path: changesPath, error: .last)
        }
        try ChecksummedFile.write(path, header: header) { writer, flush in
            try ModelCodec.encode(model, id: id, report: report, into: &writer, flush: flush)
        }
    }
}

// MARK: - The cache folder

extension ModelStore {
    /// The store of the output folder's models in the cache folder, once the cache folder is
    /// known not to be published: not inside the output, content or templates folder (the
    /// model holds drafts), nor the output's spare copy, and a folder if it exists.
    /// - Parameters:
    ///   - directory: The cache folder as the user named it.
    ///   - output: The output folder as the user named it.
    ///   - content: The content folder, likewise.
    ///   - templates: The templates folder, likewise.
    /// - Throws: `BuildFailure` naming the cache folder when it is refused.
    init(checking directory: String, output: String, content: String, templates: String)
        throws(BuildFailure)
    {
        func refuse(_ message: String, hint: String? = nil) -> BuildFailure {
            BuildFailure([.error(at: SourceLocation(path: directory), message, hint: hint)])
        }
        if directory.isEmpty {
            throw BuildFailure([
                .error(at: SourceLocation(path: "--cache-dir"), "the cache folder's name is empty")
            ])
        }
        let output = OutputWriter.absolute(output)
        let absolute = OutputWriter.absolute(directory)
        let published = [
            (output, "output"),
            (OutputWriter.absolute(content), "content"),
            (OutputWriter.absolute(templates), "templates"),
        ]
        for (folder, name) in published where absolute == folder || absolute.hasPrefix(folder + "/")
        {
            throw refuse(
                "the cache folder must not be inside the \(name) folder",
                hint: "the cache holds drafts; pass --cache-dir with a folder outside "
                    + "the output, content and templates folders")
        }
        // The output's own hidden folders beside it (`.Output.fruitsite-spare`, …) become
        // the output folder when swapped in.
        let siblings =
            (output as NSString).deletingLastPathComponent + "/."
            + (output as NSString).lastPathComponent + ".fruitsite-"
        if absolute.hasPrefix(siblings) {
            throw refuse(
                "the cache folder must not be inside the output folder's spare copy",
                hint: "the spare copy becomes the output folder, which you publish; pass "
                    + "--cache-dir with a folder outside it")
        }
        var info = stat()
        if stat(absolute, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR {
            throw refuse("the cache path exists and is not a folder")
        }
        self.init(directory: directory, output: output)
    }
}
