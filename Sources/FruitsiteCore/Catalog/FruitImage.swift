/// A fruit's picture (`image:`): the file its entry names, what it shows, and what its
/// header and a decode at a few pixels tell, which every page that shows it needs before any
/// variant is encoded. Part of the fruit's summary, so that a new photo changes the pages that
/// show it, as a new name does.
public struct FruitImage: Sendable, Equatable {
    /// The picture's path as the content folder's files are listed, such as
    /// `Content/citrus/lemon.jpg`.
    public var path: String
    /// The text that stands for the picture; empty for a decorative one.
    public var alt: String
    /// The hash of the file's bytes: the variants' names are made from it.
    public var sourceHash: UInt64
    /// The upright size in pixels and the format, as the header says.
    public var header: PictureHeader
    /// The average colour and the tiny preview a page shows until the picture loads.
    public var placeholder: PicturePlaceholder

    public init(
        path: String, alt: String, sourceHash: UInt64, header: PictureHeader,
        placeholder: PicturePlaceholder
    ) {
        self.path = path
        self.alt = alt
        self.sourceHash = sourceHash
        self.header = header
        self.placeholder = placeholder
    }
}
