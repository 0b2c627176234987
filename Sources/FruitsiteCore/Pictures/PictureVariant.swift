import Foundation

/// One encoded size and format of a picture, as a `srcset` lists it.
public struct PictureVariant: Sendable, Hashable {
    /// The format of `bytes`.
    public var format: PictureFormat
    /// The width in pixels.
    public var width: Int
    /// The height in pixels.
    public var height: Int
    /// The encoded file, without metadata.
    public var bytes: Data
}
