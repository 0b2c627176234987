extension SiteBuilder {
    /// What `apply` made, which `render` takes: the model brought up to date, the plan of the
    /// files to render, copy and remove, and the data the pages are rendered from, which
    /// holds the model, config and theme they show.
    struct Applied {
        var model: SiteModel
        var plan: SiteModel.Plan
        var data: PageData
        /// Why the model given could not be used, when the site is made anew from an empty
        /// one.
        var anew: ModelStore.Unusable?
        /// What the saved model keeps of this build, for the next to report when nothing
        /// changed.
        var report: ModelStore.Report

        /// Whether the site is made anew rather than changed: the old one's files are then
        /// no guide to what this one keeps.
        var isWhole: Bool { anew != nil }

        /// Every file the site has once rendered: those the model records, and the planned
        /// pages.
        var paths: Set<String> {
            model.writtenPaths.union(plan.pages.lazy.map { page, _ in page.path(in: model) })
        }

        /// The counts of the applied model, and what the plan parses and renders.
        var rendering: Rendering {
            Rendering(
                htmlPageCount: report.htmlPageCount, fruitCount: report.fruitCount,
                categoryCount: report.categoryCount, warnings: plan.warnings,
                parsed: plan.parsed,
                rendered: plan.pages.count + plan.assets.count
                    + plan.pictures.reduce(0) { $0 + $1.missing.count },
                notes: (anew.map { ["building clean: \($0)"] } ?? []) + plan.notes,
                report: report)
        }
    }

    // MARK: - Apply

    /// Step two for every part of the site (`SiteConfig.parts`), each applied as
    /// `apply(_:first:)` applies one; the loaded parts are let go as they are applied.
    /// - Throws: `BuildFailure` with every part's errors.
    func apply(_ loaded: inout [Loaded]) throws(BuildFailure) -> [Applied] {
        var applied: [Applied] = []
        var errors: [Diagnostic] = []
        while !loaded.isEmpty {
            do throws(BuildFailure) {
                applied.append(try apply(loaded.removeFirst()))
            } catch {
                errors += error.diagnostics.filter { !errors.contains($0) }
            }
        }
        guard errors.isEmpty else { throw BuildFailure(errors.sortedByLocation()) }
        return applied
    }

    /// Step two: applies the content's changes, the theme and the config to the model.
    /// - Parameter first: See `SiteModel.apply(_:first:)`.
    /// - Throws: `BuildFailure` with every error of the config, the theme and the content,
    ///   found together as a compiler finds them.
    func apply(
        _ loaded: consuming Loaded, first: (PageData, SiteModel.Plan) -> Void = { _, _ in }
    ) throws(BuildFailure) -> Applied {
        let (config, problems, anew) = (loaded.config, loaded.problems, loaded.anew)
        let (start, saved) = (loaded.model, loaded.report)
        var errors = problems.filter(\.isError)
        if case .failure(let error) = loaded.theme { errors += error.diagnostics }
        guard case .success(let theme) = loaded.theme, let inputs = loaded.inputs, errors.isEmpty
        else {
            // Report the content's errors with them, and when it has none, the facets no
            // fruit has.
            do throws(BuildFailure) {
                var model = start.model()
                _ = try model.update(with: loaded.content, config: config)
            } catch let failure {
                errors += failure.diagnostics
            }
            throw BuildFailure(errors.sortedByLocation())
        }
        let changes = SiteModel.Changes(content: loaded.content, theme: theme, config: config)
        let warnings = loaded.warnings(with:)
        // The model and the scan's entries are held here alone: the model changes in place,
        // and the entries are let go once in it.
        _ = consume loaded
        var model = start.model()
        var (plan, data) = try model.apply(consume changes, first: first)
        let report = ModelStore.Report(
            inputs: inputs, htmlPageCount: plan.htmlPageCount, fruitCount: model.order.count,
            categoryCount: model.categories.count, warnings: plan.warnings)
        // A report that changed is saved even when no file did: else every build after would
        // find the inputs changed, and apply them again.
        plan.changesModel = plan.changesModel || report != saved
        plan.warnings = warnings(plan.warnings)
        return Applied(model: model, plan: plan, data: data, anew: anew, report: report)
    }
}
