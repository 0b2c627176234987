/// A source picture made ready to publish: what it is, its variants and its placeholder.
public struct EncodedPicture: Sendable, Hashable {
    /// The source's header.
    public var header: PictureHeader
    /// Every variant, format by format in the settings' order (the fallback last), each
    /// format's from the narrowest.
    public var variants: [PictureVariant]
    /// What a page shows while the variant loads.
    public var placeholder: PicturePlaceholder
}
