/// Where `build` commits: the output folder, which it writes, and the cache folder's model of
/// it, which it loads and saves. Made before anything is loaded: it refuses a dangerous output
/// or cache folder before any time is spent, and holds the output folder's lock until it is
/// let go, so that one build at a time loads and saves the folder's model.
struct OutputTarget {
    private let builder: SiteBuilder
    private let writer: OutputWriter
    private let store: ModelStore?
    /// Held until this value is let go, and by the kernel until the process ends, however
    /// it ends.
    private let lock: OutputLock
    /// Warnings for what builds that are gone left and could not be removed.
    private let leftovers: [Diagnostic]

    /// Checks the output and cache folders, takes the lock and clears what builds that are
    /// gone left.
    /// - Throws: `BuildFailure` when a folder is refused or another build holds the lock.
    init(for builder: SiteBuilder) throws(BuildFailure) {
        let options = builder.options
        self.builder = builder
        writer = OutputWriter(
            outputDirectory: options.outputDirectory,
            protectedDirectories: ["."],
            sourceDirectories: [options.contentDirectory, options.templatesDirectory],
            force: options.force, keepsSpare: options.cacheDirectory != nil)
        try writer.validate()
        store = try options.cacheDirectory.map { directory throws(BuildFailure) in
            try ModelStore(
                checking: directory, output: options.outputDirectory,
                content: options.contentDirectory, templates: options.templatesDirectory)
        }
        lock = try OutputLock(
            output: OutputWriter.absolute(options.outputDirectory),
            shown: options.outputDirectory, waits: options.waitsForLock)
        // Before the marker is read.
        leftovers = writer.recover()
    }

    /// The model the last build saved for the output folder as it is.
    var savedModel: SiteBuilder.ModelSource {
        builder.savedModel(in: store, markerID: writer.markerID())
    }

    /// Starts the write of what the parts `applied` change: the whole site into a new folder
    /// when it is made anew, else the files that changed. Nil when nothing changed: a build
    /// that changed nothing touches nothing.
    func stage(_ applied: [SiteBuilder.Applied]) throws(BuildFailure) -> OutputWriter.Staging? {
        let isWhole = applied.contains(where: \.isWhole)
        guard isWhole || applied.contains(where: \.plan.changesModel) else { return nil }
        return try writer.begin(isWhole: isWhole)
    }

    /// Step four: puts the staged files in place and removes those the site no longer has,
    /// saving each part's model at the point `OutputWriter.Staging.commit` chooses; a model
    /// that cannot be saved is a warning, as the next build then starts afresh.
    ///
    /// The output folder's marker records one id for all the parts' models (`outputID`),
    /// which each saved model records too: a model is used only with the folder it describes.
    /// - Throws: `BuildFailure`; the output folder is then as it was, and the staged files
    ///   gone.
    func commit(_ rendered: [SiteBuilder.Rendered], staging: inout OutputWriter.Staging?)
        throws(BuildFailure) -> SiteBuilder.Rendering
    {
        var rendering = keep(SiteBuilder.Rendered.rendering(of: rendered))
        var summary = OutputWriter.Summary(written: 0, removed: 0)
        if staging != nil {
            let store = store
            let id = Self.outputID(of: rendered.map(\.model))
            var problem: Error?
            summary = try staging!.commit(removing: Self.removals(of: rendered), id: id) {
                do {
                    for part in rendered {
                        try store?.save(part.model, id: id, report: part.rendering.report)
                    }
                } catch {
                    problem = error
                }
            }
            // The clean-up's warnings may have been reported before writing already.
            rendering.warnings += summary.warnings.filter { !rendering.warnings.contains($0) }
            if let problem {
                rendering.warnings.append(
                    .warning(
                        at: SourceLocation(path: builder.options.cacheDirectory ?? ""),
                        "could not save the site model: \(problem)",
                        hint: "the next build starts afresh"))
            }
        }
        if summary.madeSpare {
            rendering.notes.append(
                "copied the output folder as hard links into its spare copy, "
                    + "which was missing or out of date")
        }
        rendering.written = summary
        rendering.models = rendered.map { .decoded($0.model) }
        return rendering
    }

    /// The id of the output folder the parts' models describe: the model's own for a site in
    /// one language.
    static func outputID(of models: [SiteModel]) -> UInt64 {
        guard models.count > 1 else { return models[0].outputID }
        var hasher = StableHasher()
        for model in models { hasher.combine(model.outputID) }
        return hasher.value
    }

    /// The files of the output folder the parts no longer have, at their paths there.
    static func removals(of parts: [SiteBuilder.Rendered]) -> [String] {
        parts.flatMap { part in
            part.removals.map(part.model.settings.scope.placed)
        }
    }

    /// What a build reports that leaves the output folder and the saved model as they are:
    /// `rendering`, with the warnings of what builds that are gone left.
    func keep(_ rendering: SiteBuilder.Rendering) -> SiteBuilder.Rendering {
        var rendering = rendering
        rendering.warnings += leftovers
        rendering.written = OutputWriter.Summary(written: 0, removed: 0)
        return rendering
    }
}
