extension SiteModel {
    /// Every variant of the listed fruits' pictures, as `settings` plans them: their paths,
    /// which the site keeps, and the sources whose variants the output folder lacks, each
    /// variant recorded as written; and a warning for each picture narrower than the widest
    /// variant, which pages then show at less than the theme asks for (but a GIF's or an
    /// SVG's, published as it is). A variant is recorded
    /// by its stamp, which its name holds: one recorded is in the output folder, and never
    /// written again.
    /// - Parameter parsedPictures: Whether an entry this build parsed has a picture. When
    ///   neither it nor the output folder has one, the site has none, and its fruits are not
    ///   read for them.
    mutating func pictures(settings: PictureSettings, parsedPictures: Bool) -> (
        paths: [String], sources: [PicturePublisher.Source], warnings: [Diagnostic]
    ) {
        let folder = PicturePlan.folder
        guard parsedPictures || outputs.keys.contains(where: { $0.hasPrefix(folder) }) else {
            return ([], [], [])
        }
        let widest = settings.widths.max() ?? 0
        var warnings: [Diagnostic] = []
        var paths: [String] = []
        var sources: [PicturePublisher.Source] = []
        var planned: Set<String> = []
        for id in order {
            guard let image = self[id].listed.image else { continue }
            let plan = PicturePlan(image, settings: settings)
            // Two fruits may show one picture.
            guard planned.insert(plan.variants[0].path).inserted else { continue }
            if image.header.width < widest, !image.header.format.isPublishedAsIs {
                warnings.append(
                    .warning(
                        at: SourceLocation(path: image.path),
                        "the picture is \(image.header.width) pixels wide, narrower than the "
                            + "widest variant, \(widest): it is published at its own width, never enlarged",
                        hint: "use a picture at least \(widest) pixels wide, or take the widths "
                            + "over \(image.header.width) out of 'images.widths'"))
            }
            var missing: Set<String> = []
            for variant in plan.variants {
                paths.append(variant.path)
                let record = OutputRecord(inputHash: variant.stamp, outputHash: variant.stamp)
                if outputs[variant.path] != record {
                    missing.insert(variant.path)
                    outputs[variant.path] = record
                }
            }
            if !missing.isEmpty {
                sources.append(.init(image: image, variants: plan.variants, missing: missing))
            }
        }
        return (paths, sources, warnings)
    }
}
