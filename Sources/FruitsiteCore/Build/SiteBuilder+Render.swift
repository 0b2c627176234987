extension SiteBuilder {
    /// What `render` leaves for the commit: the model with every file recorded as rendered,
    /// what to report, and the files the site no longer has.
    struct Rendered {
        var model: SiteModel
        var rendering: Rendering
        var removals: [String]
        /// See `Applied.isWhole`.
        var isWhole: Bool
    }

    // MARK: - Render

    /// Step three: renders what the plan names a batch at a time, hands `emit` each batch of
    /// the files whose bytes changed (the assets first, then let go: a sharded search index
    /// is tens of megabytes), and records each page in the model.
    /// - Throws: `BuildFailure` with every error of rendering, or what `emit` throws.
    func render(
        _ applied: consuming Applied, emit: ([RenderedPage]) throws(BuildFailure) -> Void
    ) throws(BuildFailure) -> Rendered {
        var rendering = applied.rendering
        try emit(applied.plan.assets)
        applied.plan.assets = []
        var renderer = PageRenderer(templatesDirectory: options.templatesDirectory)
        renderer.onProgress = onProgress
        renderer.batchLimit = batchLimit
        let scanner = scanner(applied.data.config)
        let (plan, isWhole) = (applied.plan, applied.isWhole)
        var model = applied.model
        // The planned pages' output hashes, in the plan's order, which the batches keep: the
        // records are made from the two at the end, sparing a copy of every page.
        var outputHashes: [UInt64] = []
        outputHashes.reserveCapacity(plan.pages.count)
        do {
            // The copies of the model end with this block, so recording below changes the
            // model in place.
            let (current, data) = (model, (consume applied).data)
            try renderer.render(plan.pages, with: data) { id throws(BuildFailure) in
                if let details = plan.details(of: id)?.load() { return details }
                return try scanner.details(of: current[id])
            } emit: { planned, pages throws(BuildFailure) in
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
}
