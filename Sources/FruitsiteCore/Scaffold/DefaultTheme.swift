import Foundation

/// The theme in `Templates/`, embedded in the binary at build time (`Plugins/EmbedTheme`), so
/// `fruitsite init` can start a site anywhere with it.
public enum DefaultTheme {
    /// Every file of the theme: its path inside the theme folder and its bytes, by path.
    public static var files: [(path: String, bytes: [UInt8])] {
        encodedFiles.map { file in
            // The embedder wrote the Base64 itself: it always decodes.
            (file.path, Array(Data(base64Encoded: file.base64)!))
        }
    }
}
