/// The pages a browser has open, which `serve` renders first from the applied content's data,
/// before the rest of the update (`LiveSite.update(changing:open:first:)`).
extension SiteModel {
    /// The pages of the site `data` renders whose files are at `paths`
    /// (`fruits/apple/index.html`): a fruit's page through the slug index.
    func pages(of data: PageData, at paths: Set<String>) -> [Page] {
        var found = pages(of: data).filter { page in
            page.kind != .fruit && paths.contains(page.path(in: self))
        }
        let wanted = paths.sorted().compactMap { path -> Substring? in
            guard path.hasPrefix("fruits/"), path.hasSuffix("/index.html") else { return nil }
            return path.dropFirst("fruits/".count).dropLast("/index.html".count)
        }
        let slugs = self.slugs(for: wanted)
        for slug in wanted {
            for id in slugs.ids(withSlug: slug, in: self) {
                if let position = data.positions[id] { found.append(.fruit(position: position)) }
            }
        }
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
