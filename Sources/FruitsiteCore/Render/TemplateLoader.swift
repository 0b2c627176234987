import Mustache

/// Compiles the theme: every `.mustache` file below the templates folder, plus its assets.
public struct TemplateLoader: Sendable {
    /// The page templates a theme must have.
    public static let requiredTemplates = ["index", "fruit", "category", "404"]

    public var templatesDirectory: String
    public var fileSystem: FileSystem
    /// The site's facets (`SiteConfig.facets`): with any, the theme needs a `facet` template.
    public var facets: [String]
    /// The site's language (`SiteConfig.language`), which chooses the theme's string table.
    public var language: String

    /// Creates a loader.
    /// - Parameters:
    ///   - templatesDirectory: The templates folder as the user named it.
    ///   - fileSystem: Where to read from.
    ///   - facets: The site's facets, whose pages need a `facet` template.
    ///   - language: The site's language, whose string table (`i18n/<tag>.yml`) pages show.
    public init(
        templatesDirectory: String, fileSystem: FileSystem = .local, facets: [String] = [],
        language: String = SiteConfig.defaultLanguage
    ) {
        self.templatesDirectory = templatesDirectory
        self.fileSystem = fileSystem
        self.facets = facets
        self.language = language
    }

    /// A compiled theme.
    public struct Theme: Sendable {
        /// Templates by name: the path below the templates folder without `.mustache`.
        public var library: MustacheLibrary
        /// Files below `assets/`, as they are.
        public var assets: [RenderedPage]
        /// The assets as published: under their own names and their stamped ones.
        let assetNames: AssetNames
        /// Links not followed, and the like.
        public var warnings: [Diagnostic] = []
        /// Each template's text, by name.
        let sources: [String: String]
        /// The theme's words in the site's language (`i18n/`).
        let strings: ThemeStrings
        /// The parts each kind of page shows with these templates, by `PageKind.index`.
        private var shown: [PageInput.Set] = []
        /// For each kind of page, a hash of the fruitsite that renders it and of the name and
        /// source of every template its template can include: editing a template renders
        /// again only the pages that use it.
        private var versions: [UInt64] = []

        init(
            library: MustacheLibrary, sources: [String: String], strings: ThemeStrings,
            assets: [RenderedPage], assetNames: AssetNames
        ) {
            self.library = library
            self.assets = assets
            self.assetNames = assetNames
            self.sources = sources
            self.strings = strings
            for kind in PageKind.allCases {
                var hasher = StableHasher()
                hasher.combine(Generator.identity)
                hasher.combine(kind.rawValue)
                // Any page can show the theme's words, and its titles and counts use them.
                hasher.combine(strings.hash)
                guard let template = kind.template, let usage = library.usage(of: template) else {
                    shown.append(.all)
                    versions.append(hasher.value)
                    continue
                }
                shown.append(PageInput.Set(PageInput.allCases.filter { $0.isShown(by: usage) }))
                // A dynamic partial can include any template.
                let names = usage.hasDynamicInclusions ? Set(sources.keys) : usage.templates
                for name in names.sorted() {
                    hasher.combine(name)
                    hasher.combine(sources[name] ?? "")
                }
                versions.append(hasher.value)
            }
        }

        /// The parts of their data pages of `kind` show.
        func shown(on kind: PageKind) -> PageInput.Set { shown[kind.index] }

        /// The hash of the templates and the fruitsite that render pages of `kind`.
        func version(of kind: PageKind) -> UInt64 { versions[kind.index] }

        /// Whether pages of `kind` are written: those fruitsite writes itself, and those whose
        /// template the theme has. A required template is never missing (`load()`); a theme
        /// made before an optional kind existed lacks its template, links none of its pages,
        /// and so loses nothing by their absence.
        func writes(_ kind: PageKind) -> Bool {
            kind.template.map { sources[$0] != nil } ?? true
        }
    }

    /// The most bytes one asset may hold; a template may hold `FileSystem.defaultLimit`.
    public static let maximumAssetSize = 256 << 20

    /// Reads and compiles every template, reporting every syntax error of every template.
    /// - Throws: `BuildFailure` with `Templates/<name>.mustache:line:col` diagnostics.
    public func load() throws(BuildFailure) -> Theme {
        guard fileSystem.isDirectory(templatesDirectory) else {
            // No theme at all is most often a folder that is no site yet: say how to make one.
            let isMissing = fileSystem.resolve(templatesDirectory) == nil
            throw BuildFailure([
                .error(
                    at: SourceLocation(path: templatesDirectory),
                    isMissing
                        ? "the templates folder does not exist"
                        : "the templates path is not a folder",
                    hint: isMissing
                        ? "pass --templates DIR, or run 'fruitsite init DIR' to start a site"
                        : "pass --templates DIR")
            ])
        }
        var sources: [String: String] = [:]
        var tables: [String: StringTable] = [:]
        var assets: [RenderedPage] = []
        var diagnostics: [Diagnostic] = []
        // Links are followed as in the content folder: only to places inside the folder, so
        // that a link cannot publish /etc/passwd. A folder linked under another name is read
        // under that name too (its templates and assets have both paths), but never inside
        // itself: each folder waiting to be read carries the real folders it is in.
        let root = fileSystem.resolve(templatesDirectory) ?? templatesDirectory
        var pending: [(relative: String, within: Set<String>)] = [("", [root])]
        while let (relative, within) = pending.popLast() {
            let directory =
                relative.isEmpty ? templatesDirectory : templatesDirectory + "/" + relative
            var entries: [FileSystem.Entry] = []
            do {
                entries = try fileSystem.list(directory).sorted {
                    UTF8Order.precedes($0.name, $1.name)
                }
            } catch {
                diagnostics.append(
                    .error(at: SourceLocation(path: directory), "cannot list the folder: \(error)"))
            }
            for entry in entries where !FileSystem.isScratch(entry.name) {
                let path = relative.isEmpty ? entry.name : relative + "/" + entry.name
                let fullPath = templatesDirectory + "/" + path
                if entry.kind == .symbolicLink,
                    fileSystem.followLink(
                        fullPath, inside: root, folderName: "templates folder",
                        warnings: &diagnostics) == nil
                {
                    continue
                }
                if fileSystem.isDirectory(fullPath) {
                    let real = fileSystem.resolve(fullPath) ?? fullPath
                    if !within.contains(real) { pending.append((path, within.union([real]))) }
                    continue
                }
                if let tag = Self.tableTag(of: path) {
                    readTable(fullPath, tag: tag, into: &tables, diagnostics: &diagnostics)
                    continue
                }
                // Everything below `assets/` is an asset, a `.mustache` file too.
                let isAsset = path.hasPrefix("assets/")
                guard isAsset || path.hasSuffix(".mustache") else { continue }
                let name = isAsset ? path : String(path.dropLast(".mustache".count))
                do {
                    let limit = isAsset ? Self.maximumAssetSize : FileSystem.defaultLimit
                    let bytes = try fileSystem.read(fullPath, limit)
                    if isAsset {
                        assets.append(RenderedPage(path: path, bytes: bytes))
                    } else if let text = String(validating: bytes, as: UTF8.self) {
                        sources[name] = text
                    } else {
                        let error = SourceText.firstInvalidByte(in: bytes)
                        diagnostics.append(
                            .error(
                                at: SourceLocation(
                                    path: fullPath, line: error.line, column: error.column),
                                "the template is not valid UTF-8"))
                        // Known all the same: a template that includes it gets no error too.
                        sources[name] = ""
                    }
                } catch {
                    diagnostics.append(
                        .error(at: SourceLocation(path: fullPath), "cannot read the file: \(error)")
                    )
                    if !isAsset { sources[name] = "" }
                }
            }
        }
        for name in Self.requiredTemplates where sources[name] == nil {
            diagnostics.append(
                .error(
                    at: SourceLocation(path: "\(templatesDirectory)/\(name).mustache"),
                    "the theme has no '\(name)' template",
                    hint: "every theme needs "
                        + Self.requiredTemplates.map { "\($0).mustache" }.joined(separator: ", ")))
        }
        if !facets.isEmpty, sources["facet"] == nil {
            diagnostics.append(
                .error(
                    at: SourceLocation(path: templatesDirectory + "/facet.mustache"),
                    "the theme has no facet template, which the site's facets "
                        + "(\(facets.joined(separator: ", "))) need for their pages",
                    hint: "copy Templates/facet.mustache from 'fruitsite init', "
                        + "or set 'facets: []' in the config"))
        }
        do {
            let library = try MustacheLibrary(templates: sources, requiresKnownPartials: true)
            if diagnostics.containsErrors { throw BuildFailure(diagnostics) }
            assets.sort { $0.path < $1.path }
            let names = AssetNames(assets, templatesDirectory: templatesDirectory) {
                Set(library.names.flatMap { library.usage(of: $0)?.lookups.map(\.name) ?? [] })
            }
            let strings = ThemeStrings(
                tables: tables, language: language, folder: templatesDirectory + "/i18n",
                warnings: &diagnostics)
            var theme = Theme(
                library: library, sources: sources, strings: strings, assets: assets,
                assetNames: names)
            theme.warnings = diagnostics + names.warnings
            return theme
        } catch let errors as MustacheErrors {
            throw BuildFailure(diagnostics + errors.errors.map(diagnostic(for:)))
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure(
                diagnostics + [.error(at: SourceLocation(path: templatesDirectory), "\(error)")])
        }
    }

    /// Maps an engine error to `Templates/<name>.mustache:line:col`.
    func diagnostic(for error: MustacheError) -> Diagnostic {
        var hint = error.hint
        if case .outputTooLarge = error.reason {
            hint = "raise 'maxPageSize' in fruitsite.yml if pages are meant to be this big"
        }
        return .error(
            at: SourceLocation(
                path: "\(templatesDirectory)/\(error.template).mustache",
                line: error.line > 0 ? error.line : nil,
                column: error.column > 0 ? error.column : nil),
            error.message, hint: hint)
    }
}
