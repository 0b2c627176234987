import Foundation
import PackagePlugin

/// Embeds the default theme (`Templates/`) in FruitsiteCore at build time, so `fruitsite
/// init` can write it anywhere: the folder stays the one copy of the theme.
@main
struct EmbedTheme: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let theme = context.package.directoryURL.appending(path: "Templates")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedThemeFiles.swift")
        var inputs: [URL] = []
        let enumerator = FileManager.default.enumerator(
            at: theme, includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                inputs.append(url)
            }
        }
        return [
            .buildCommand(
                displayName: "Embedding the default theme",
                executable: try context.tool(named: "ThemeEmbedder").url,
                arguments: [theme.path, output.path],
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
