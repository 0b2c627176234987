import Foundation

// Writes a Swift file holding every file of a theme folder (the EmbedTheme plugin's tool):
//   ThemeEmbedder <theme folder> <output .swift file>
// Files are sorted by path and stored as Base64, so any bytes survive and the output is the
// same on every machine.

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: ThemeEmbedder THEME OUTPUT\n".utf8))
    exit(2)
}
let theme = URL(fileURLWithPath: arguments[1])
var files: [(path: String, base64: String)] = []
let enumerator = FileManager.default.enumerator(
    at: theme, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
while let url = enumerator?.nextObject() as? URL {
    guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else {
        continue
    }
    let path = String(
        url.standardizedFileURL.path.dropFirst(theme.standardizedFileURL.path.count + 1))
    files.append((path, try Data(contentsOf: url).base64EncodedString()))
}
files.sort { $0.path < $1.path }
var source = """
    // Generated at build time from the default theme folder by ThemeEmbedder; do not edit.

    extension DefaultTheme {
        static let encodedFiles: [(path: String, base64: String)] = [

    """
for file in files {
    source += "        (\"\(file.path)\", \"\(file.base64)\"),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: URL(fileURLWithPath: arguments[2]), options: .atomic)
