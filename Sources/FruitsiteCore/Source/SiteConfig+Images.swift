/// Reading `images:`, how pictures are published (`PictureSettings`):
///
/// ```yaml
/// images:
///   widths: [320, 640, 960, 1280]
///   formats: [avif, webp]
///   quality: {avif: 50, webp: 75, jpeg: 80}
///   avifEffort: 3
/// ```
extension SiteConfig {
    static let imageKeys = ["widths", "formats", "quality", "avifEffort"]
    /// The formats `formats` may list: the fallback, the source's own JPEG or PNG, is
    /// always written besides.
    static let imageFormats: [PictureFormat] = [.avif, .webp]
    static let imageQualityKeys: [PictureFormat] = [.avif, .webp, .jpeg]
    /// The widths a variant may have: narrower is no picture, wider no screen.
    static let imageWidths = 16...8_192

    /// Reads the `images` map; each setting in error keeps its default.
    mutating func readImages(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        guard case .mapping(let pairs) = node.kind else {
            diagnostics.append(
                .error(
                    at: location(node), "'images' must be a map, not \(node.kindDescription)",
                    hint: "for example 'images: {widths: [480, 960], formats: [avif, webp]}'"))
            return
        }
        for (key, value) in pairs {
            let name = key.scalarText ?? ""
            func problem(_ message: String, _ hint: String?) {
                diagnostics.append(.error(at: location(value), message, hint: hint))
            }
            switch name {
            case "widths":
                guard let widths = Self.integers(value, in: Self.imageWidths), !widths.isEmpty
                else {
                    problem(
                        "'images.widths' must be a list of widths in pixels, from "
                            + "\(Self.imageWidths.lowerBound) to \(Self.imageWidths.upperBound)",
                        "for example [320, 640, 960, 1280]; a picture is never enlarged")
                    continue
                }
                images.widths = widths
            case "formats":
                let names = Self.imageFormats.map(\.rawValue)
                let formats: [String]? = {
                    guard case .sequence(let items) = value.kind else { return nil }
                    let texts = items.compactMap(\.scalarText)
                    return texts.count == items.count && texts.allSatisfy(names.contains)
                        ? texts : nil
                }()
                guard let formats else {
                    problem(
                        "'images.formats' must be a list of \(names.joined(separator: " and "))",
                        "the source's own JPEG or PNG is always written besides; [] writes it alone"
                    )
                    continue
                }
                images.formats = formats.compactMap(PictureFormat.init(rawValue:))
            case "quality":
                readImageQuality(value, into: &diagnostics, at: location)
            case "avifEffort":
                guard let effort = Self.integers(value, in: 0...9, single: true)?.first else {
                    problem(
                        "'images.avifEffort' must be a whole number from 0 to 9",
                        "how hard the AV1 encoder works: 0 is fastest, 9 makes the smallest files")
                    continue
                }
                images.avifEffort = effort
            default:
                let guess = Suggestion.closest(to: name, in: Self.imageKeys)
                diagnostics.append(
                    .error(
                        at: location(key), "unknown key 'images.\(name)'",
                        hint: guess.map { "did you mean '\($0)'?" }
                            ?? "known keys: \(Self.imageKeys.joined(separator: ", "))"))
            }
        }
    }

    /// Reads `images.quality`, a map of a quality from 1 to 100 by format.
    private mutating func readImageQuality(
        _ node: YAMLNode, into diagnostics: inout [Diagnostic],
        at location: (YAMLNode) -> SourceLocation
    ) {
        let names = Self.imageQualityKeys.map(\.rawValue)
        guard case .mapping(let pairs) = node.kind else {
            diagnostics.append(
                .error(
                    at: location(node), "'images.quality' must be a map of a quality by format",
                    hint: "for example {avif: 50, webp: 75, jpeg: 80}"))
            return
        }
        for (key, value) in pairs {
            let name = key.scalarText ?? ""
            guard let format = PictureFormat(rawValue: name), names.contains(name) else {
                diagnostics.append(
                    .error(
                        at: location(key), "unknown key 'images.quality.\(name)'",
                        hint: "the formats with a quality: \(names.joined(separator: ", "))"))
                continue
            }
            guard let quality = Self.integers(value, in: 1...100, single: true)?.first else {
                diagnostics.append(
                    .error(
                        at: location(value),
                        "'images.quality.\(name)' must be a whole number from 1 to 100"))
                continue
            }
            images.setQuality(quality, of: format)
        }
    }

    /// The whole numbers in `range` that `node` holds: a list of them, or one alone when
    /// `single`; nil when it holds anything else.
    private static func integers(
        _ node: YAMLNode, in range: ClosedRange<Int>, single: Bool = false
    ) -> [Int]? {
        let items: [YAMLNode]
        switch node.kind {
        case .sequence(let list) where !single: items = list
        case .scalar where single: items = [node]
        default: return nil
        }
        var numbers: [Int] = []
        for item in items {
            guard case .int(let number) = FruitParser.mustacheValue(item), range.contains(number)
            else { return nil }
            numbers.append(number)
        }
        return numbers
    }
}
