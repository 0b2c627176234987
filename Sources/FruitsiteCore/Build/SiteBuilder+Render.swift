extension SiteBuilder {
    /// What `render` leaves for the commit: the model with every file recorded as rendered,
    /// what to report, and the files the site no longer has.
    struct Rendered {
        var model: SiteModel
        var rendering: Rendering
        var removals: [String]
        /// See `Applied.isWhole`.
        var isWhole: Bool

        /// What a build of these parts reports, together.
        static func rendering(of parts: [Rendered]) -> Rendering {
            Rendering(
                combining: parts.map(\.rendering),
                languages: parts.map(\.model.settings.scope.code))
        }
    }

    // MARK: - Render

    /// Step three: renders what the plan names a batch at a time, hands `emit` each batch of
    /// the files whose bytes changed (the assets first, then let go: a sharded search index
    /// is tens of megabytes; then the pictures' variants the output lacks), and records each
    /// page in the model.
    /// - Parameter publishesPictures: Whether the pictures' variants are made: `check`
    ///   writes nothing, and has no use for them.
    /// - Throws: `BuildFailure` with every error of rendering, or what `emit` throws.
    func render(
        _ applied: consuming Applied, publishesPictures: Bool = true,
        emit: ([RenderedPage]) throws(BuildFailure) -> Void
    ) throws(BuildFailure) -> Rendered {
        var rendering = applied.rendering
        try emit(applied.plan.assets)
        applied.plan.assets = []
        if publishesPictures, !applied.plan.pictures.isEmpty {
            let published = try publisher(applied.data.config).publish(
                applied.plan.pictures, emit: emit)
            rendering.notes.append(
                "pictures: encoded \(published.encoded), taken from the cache \(published.cached)")
        }
        applied.plan.pictures = []
        let (plan, isWhole) = (applied.plan, applied.isWhole)
        var model = applied.model
        // The planned pages' output hashes, in the plan's order, which the batches keep: the
        // records are made from the two at the end, sparing a copy of every page.
        var outputHashes: [UInt64] = []
        outputHashes.reserveCapacity(plan.pages.count)
        do {
            // The copies of the model end with this block, so recording below changes the
            // model in place.
            let current = model
            try render(plan.pages, with: (consume applied).data, plan: plan) {
                planned, pages throws(BuildFailure) in
                let hashes = pages.concurrentMap { StableHasher.hash($0.bytes) }
                var changed: [RenderedPage] = []
                for ((page, _), (file, outputHash)) in zip(planned, zip(pages, hashes)) {
                    // A page rendered again may still come out as before.
                    if current.record(of: page)?.outputHash != outputHash { changed.append(file) }
                }
                outputHashes += hashes
                try emit(changed)
            }
        }
        precondition(outputHashes.count == plan.pages.count, "a planned page was not emitted")
        for ((page, inputHash), outputHash) in zip(plan.pages, outputHashes) {
            model.record(page, SiteModel.OutputRecord(inputHash: inputHash, outputHash: outputHash))
        }
        if let note = plan.detailsStore?.failureNote { rendering.notes.append(note) }
        return Rendered(
            model: model, rendering: rendering, removals: plan.removals, isWhole: isWhole)
    }

    /// Renders `pages` from `data` a batch at a time (see `PageRenderer`), each fruit's page
    /// from the details `plan` kept of it or, when it kept none, read again from its file.
    func render(
        _ pages: [(page: Page, inputHash: UInt64)], with data: consuming PageData,
        plan: SiteModel.Plan,
        emit: (ArraySlice<(page: Page, inputHash: UInt64)>, [RenderedPage]) throws(BuildFailure)
            -> Void
    ) throws(BuildFailure) {
        var renderer = PageRenderer(templatesDirectory: options.templatesDirectory)
        renderer.onProgress = progress(of: .rendering)
        renderer.batchLimit = batchLimit
        let (scanner, model) = (scanner(data.config), data.model)
        let details = { @Sendable (id: EntryID) throws(BuildFailure) -> FruitDetails in
            if let details = plan.details(of: id)?.load() { return details }
            return try scanner.details(of: model[id])
        }
        try renderer.render(pages, with: data, details: details, emit: emit)
    }
}

extension SiteBuilder {
    /// The picture stage, with the config's settings and the cache folder.
    func publisher(_ config: SiteConfig) -> PicturePublisher {
        PicturePublisher(
            settings: config.images, fileSystem: fileSystem,
            cacheDirectory: options.pictureCacheDirectory
                ?? options.cacheDirectory.map { "\($0)/\(BuildOptions.pictureCacheFolder)" },
            onProgress: progress(of: .encodingPictures))
    }

    /// `onProgress` for one stage.
    private func progress(of stage: BuildStage) -> (@Sendable (Int, Int) -> Void)? {
        guard let onProgress else { return nil }
        return { done, total in onProgress(stage, done, total) }
    }
}
