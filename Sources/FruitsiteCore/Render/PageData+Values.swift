import Mustache

/// Template values many parts make alike: a fruit's summary, a listing's pager.
extension PageData {
    /// The keys of a fruit's summary, which every listed fruit's shares.
    private static let summaryKeys = [
        "slug", "name", "emoji", "category", "categorySlug", "vitamins", "url", "categoryURL",
        "image",
    ]
    /// With a date: as the language writes it, the ISO day, the moment for `<time datetime>`.
    private static let datedSummaryKeys = summaryKeys + ["date", "day", "dateTime"]

    /// What a listing, or a link to a fruit, shows of it, with links from `root`, its picture
    /// as `pictures` publishes it, its date in the words of `strings`.
    static func summary(
        of fruit: ListedFruit, categorySlug: String, root: String, pictures: PictureSettings,
        strings: ThemeStrings
    ) -> MustacheValue {
        // In the order of `summaryKeys`.
        var values: [MustacheValue] = [
            .string(fruit.slug), .string(BidiIsolation.isolated(fruit.name)),
            optional(BidiIsolation.isolated(fruit.emoji)),
            .string(BidiIsolation.isolated(fruit.category)), .string(categorySlug),
            optional(fruit.vitamins),
            .string(String(joining: root, "fruits/", fruit.slug, "/")),
            .string(String(joining: root, "categories/", categorySlug, "/")),
            fruit.image.map { image in
                PictureValues.value(
                    of: image, plan: PicturePlan(image, settings: pictures), root: root)
            } ?? .null,
        ]
        guard let date = fruit.date else {
            return .object(MustacheObject(uniqueKeys: summaryKeys, values: values))
        }
        values += [.string(strings.date(date)), .string(date.day), .string(date.timestamp)]
        return .object(MustacheObject(uniqueKeys: datedSummaryKeys, values: values))
    }

    /// The `pager` of page `current` of `count`, whose first page's heading is `heading`:
    /// null when the listing has one page.
    static func pager(_ current: Int, of count: Int, heading: String, strings: ThemeStrings)
        -> MustacheValue
    {
        guard count > 1 else { return .null }
        func url(_ number: Int) -> MustacheValue {
            .string(Pagination.url(of: number, from: current))
        }
        let pages = Pagination.nearby(current, of: count).map { number -> MustacheValue in
            guard let number else { return ["isGap": true, "isCurrent": false] }
            return [
                "number": .int(number), "url": url(number), "isCurrent": .bool(number == current),
                "isGap": false,
                "label": .string(strings.text("pageNumber", ["page": strings.number(number)])),
            ]
        }
        return [
            "current": .int(current),
            "count": .int(count),
            "isFirst": .bool(current == 1),
            "isLast": .bool(current == count),
            "firstURL": url(1),
            "lastURL": url(count),
            "previousURL": current > 1 ? url(current - 1) : .null,
            "nextURL": current < count ? url(current + 1) : .null,
            "pages": .array(pages),
            "status": .string(
                strings.text(
                    "pageOfPages",
                    ["page": strings.number(current), "pages": strings.number(count)])),
            "heading": .string(
                current == 1
                    ? heading
                    : strings.text(
                        "pageTitle", ["title": heading, "page": strings.number(current)])),
        ]
    }

    /// Empty text as null: falsy in a section and still found by lookup, so an empty field
    /// hides its `{{#field}}` block without falling back to an outer context's key.
    static func optional(_ text: String) -> MustacheValue {
        text.isEmpty ? .null : .string(text)
    }
}
