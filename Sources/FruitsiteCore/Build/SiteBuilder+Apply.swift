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

    /// What `update` makes of one part's `Loaded`: its model with the content applied, and
    /// what `plan` needs to finish applying the rest.
    struct Updated {
        var model: SiteModel
        var plan: SiteModel.Plan
        var theme: TemplateLoader.Theme
        var config: SiteConfig
        var inputs: UInt64
        var anew: ModelStore.Unusable?
        var saved: ModelStore.Report?
        /// The config's and the theme's warnings, which come before the content's.
        var leadingWarnings: [Diagnostic]
    }

    /// Step two: applies the content's changes, the theme and the config to each part's
    /// model. The content goes first, in every part, so that each page knows the languages
    /// that have its entry (`Translations`) before the pages to render are chosen.
    /// - Parameter first: See `SiteModel.plan(after:theme:config:translations:first:)`.
    /// - Throws: `BuildFailure` with every error of the config, the theme and the content,
    ///   of every part, found together as a compiler finds them.
    func apply(
        _ loaded: inout [Loaded], first: (PageData, SiteModel.Plan) -> Void = { _, _ in }
    ) throws(BuildFailure) -> [Applied] {
        var updated: [Updated] = []
        var errors: [Diagnostic] = []
        while !loaded.isEmpty {
            do throws(BuildFailure) {
                updated.append(try update(loaded.removeFirst()))
            } catch {
                errors += error.diagnostics.filter { !errors.contains($0) }
            }
        }
        guard errors.isEmpty else { throw BuildFailure(errors.sortedByLocation()) }
        if updated.count > 1 {
            let errors = checkTranslations(of: &updated)
            guard errors.isEmpty else { throw BuildFailure(errors.sortedByLocation()) }
        }
        let translations = Translations(updated.map { ($0.model, $0.config, $0.theme) })
        var applied: [Applied] = []
        while !updated.isEmpty {
            applied.append(plan(updated.removeFirst(), translations: translations, first: first))
        }
        return applied
    }

    /// Applies one part's content to its model.
    /// - Throws: `BuildFailure` with every error of the config, the theme and the content.
    private func update(_ loaded: consuming Loaded) throws(BuildFailure) -> Updated {
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
        let leadingWarnings = loaded.warnings(with: [])
        let content = loaded.content
        // The model and the scan's entries are held here alone: the model changes in place,
        // and the entries are let go once in it.
        _ = consume loaded
        var model = start.model()
        let plan = try model.update(with: consume content, config: config)
        return Updated(
            model: model, plan: plan, theme: theme, config: config, inputs: inputs, anew: anew,
            saved: saved, leadingWarnings: leadingWarnings)
    }

    /// Applies the theme and the config to a part whose content is applied, and plans its
    /// files.
    private func plan(
        _ updated: consuming Updated, translations: Translations,
        first: (PageData, SiteModel.Plan) -> Void
    ) -> Applied {
        var model = updated.model
        let (saved, anew, leading) = (updated.saved, updated.anew, updated.leadingWarnings)
        var (plan, data) = model.plan(
            after: updated.plan, theme: updated.theme, config: updated.config,
            translations: translations, first: first)
        let report = ModelStore.Report(
            inputs: updated.inputs, htmlPageCount: plan.htmlPageCount,
            fruitCount: model.order.count, categoryCount: model.categories.count,
            warnings: plan.warnings)
        // A report that changed is saved even when no file did: else every build after would
        // find the inputs changed, and apply them again.
        plan.changesModel = plan.changesModel || report != saved
        plan.warnings = leading + plan.warnings
        return Applied(model: model, plan: plan, data: data, anew: anew, report: report)
    }
}
