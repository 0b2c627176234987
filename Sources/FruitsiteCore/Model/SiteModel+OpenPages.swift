/// The pages a browser has open, which `serve` renders first from the applied content's data,
/// before the rest of the update (`LiveSite.update(changing:open:first:)`).
extension SiteModel {
    /// The pages of the site `data` renders whose files are at `paths`
    /// (`fruits/apple/index.html`). A fruit's page is found by the hash of the slug in its
    /// entry's path, as `duplicateSlugs` finds it, on every core: decoding each fruit's slug
    /// took 70 ms at 100,000 fruits, and the paths, which lie apart from the entries in
    /// memory, 17 ms on one core.
    func pages(of data: PageData, at paths: Set<String>) -> [Page] {
        var found = pages(of: data).filter { page in
            page.kind != .fruit && paths.contains(page.path(in: self))
        }
        let slugs = Set(
            paths.compactMap { path -> String? in
                guard path.hasPrefix("fruits/"), path.hasSuffix("/index.html") else { return nil }
                return String(path.dropFirst("fruits/".count).dropLast("/index.html".count))
            })
        guard !slugs.isEmpty else { return found }
        let hashes = Set(slugs.map { StableHasher.hash(Array($0.utf8)) })
        let positions = data.positions
        let matches = entries.ids.concurrentShares { [entries] share in
            share.compactMap { id -> CatalogPosition? in
                guard let position = positions[id] else { return nil }
                var path = entries[id]!.path
                guard hashes.contains(path.withUTF8(Self.slugHash)),
                    slugs.contains(String(SourceFile.slug(of: path)))
                else { return nil }
                return position
            }
        }
        found += matches.joined().map { .fruit(position: $0) }
        return found
    }

    /// The pages of the fruits `plan` parsed that have no page yet: those of the files added
    /// or renamed since the last build.
    func newFruitPages(of plan: Plan, in data: PageData) -> [Page] {
        plan.details.compactMap { id, _ in
            guard let position = data.positions[id], self[id].page == nil else { return nil }
            return .fruit(position: position)
        }
    }
}
