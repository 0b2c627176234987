import Mustache

/// A picture as a template receives it (`fruit.image`): everything a theme needs to write its
/// own `<picture>`, each variant's URL from the page's root.
///
/// `src`, `srcset` and `type` are the fallback's (the source's JPEG or PNG, which every
/// browser shows); `sources` the other formats', in the settings' order, for `<source>`
/// elements; `width` and `height` the widest variant's, for the `<img>`'s attributes, so that
/// nothing shifts as it loads; `color` and `placeholder` what to show until it does (an SVG
/// has no placeholder); `large` the variant nearest to 1,200 pixels wide, for `og:image`
/// and JSON-LD (null for an SVG, which link previews do not show); `thumbnail` one
/// variant a format for a card (`PicturePlan.thumbnails`), as the search index holds it.
enum PictureValues {
    /// The width link previews ask for (Open Graph's recommended 1,200 × 630).
    static let previewWidth = 1_200

    /// The fallback's variant nearest to `previewWidth`: what link previews and JSON-LD show.
    static func preview(of plan: PicturePlan) -> PicturePlan.Variant {
        let fallback = plan.variants[plan.variants.count - 1].format
        return plan.variants.filter { $0.format == fallback }.min { a, b in
            abs(a.width - previewWidth) < abs(b.width - previewWidth)
        }!
    }

    static func value(of image: FruitImage, plan: PicturePlan, root: String) -> MustacheValue {
        let formats = plan.variants.reduce(into: [PictureFormat]()) { formats, variant in
            if !formats.contains(variant.format) { formats.append(variant.format) }
        }
        let fallback = formats[formats.count - 1]
        func variants(_ format: PictureFormat) -> [PicturePlan.Variant] {
            plan.variants.filter { $0.format == format }
        }
        func srcset(_ format: PictureFormat) -> MustacheValue {
            .string(
                variants(format).map { "\(root)\($0.path) \($0.width)w" }.joined(separator: ", "))
        }
        let widest = variants(fallback)[variants(fallback).count - 1]
        let large = preview(of: plan)
        let thumbnails = plan.thumbnails
        let thumbnail = thumbnails[thumbnails.count - 1]
        return [
            // Null for a decorative picture: `{{#alt}}` then hides what describes it.
            "alt": PageData.optional(image.alt),
            "width": .int(widest.width),
            "height": .int(widest.height),
            "src": .string(root + widest.path),
            "srcset": srcset(fallback),
            "type": .string(fallback.mediaType),
            "sources": .array(
                formats.dropLast().map { format in
                    ["type": .string(format.mediaType), "srcset": srcset(format)]
                }),
            "color": .string(image.placeholder.color),
            "placeholder": image.placeholder.preview.isEmpty
                ? .null : .string(image.placeholder.dataURI),
            "large": fallback == .svg
                ? .null
                : [
                    "path": .string(large.path), "width": .int(large.width),
                    "height": .int(large.height), "type": .string(fallback.mediaType),
                ],
            "thumbnail": [
                "src": .string(root + thumbnail.path),
                "width": .int(thumbnail.width), "height": .int(thumbnail.height),
                "color": .string(image.placeholder.color),
                "sources": .array(
                    thumbnails.dropLast().map { variant in
                        [
                            "type": .string(variant.format.mediaType),
                            "src": .string(root + variant.path),
                        ]
                    }),
            ],
        ]
    }
}
