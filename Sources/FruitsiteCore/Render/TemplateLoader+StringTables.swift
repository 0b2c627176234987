/// The theme's string tables (`i18n/<tag>.yml`), read as the loader walks the folder.
extension TemplateLoader {
    /// The language tag of a string table's path below the templates folder
    /// (`i18n/fr-CA.yml`), or nil for a file that is none.
    static func tableTag(of path: String) -> String? {
        guard path.hasPrefix("i18n/"), path.hasSuffix(".yml") else { return nil }
        let tag = path.dropFirst("i18n/".count).dropLast(".yml".count)
        return tag.isEmpty || tag.contains("/") ? nil : String(tag)
    }

    /// Reads and parses the string table at `path` into `tables`, or its errors into
    /// `diagnostics`.
    func readTable(
        _ path: String, tag: String, into tables: inout [String: StringTable],
        diagnostics: inout [Diagnostic]
    ) {
        do {
            let bytes = try fileSystem.read(path, FileSystem.defaultLimit)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let error = SourceText.firstInvalidByte(in: bytes)
                diagnostics.append(
                    .error(
                        at: SourceLocation(path: path, line: error.line, column: error.column),
                        "the string table is not valid UTF-8"))
                return
            }
            switch StringTable.parse(text, path: path) {
            case .success(let table): tables[tag] = table
            case .failure(let failure): diagnostics += failure.diagnostics
            }
        } catch {
            diagnostics.append(
                .error(at: SourceLocation(path: path), "cannot read the file: \(error)"))
        }
    }
}
