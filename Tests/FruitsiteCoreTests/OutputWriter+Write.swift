import FruitsiteCore

extension OutputWriter {
    /// Writes `files` in one go, as a build does a batch at a time: `begin`, one
    /// `Staging.add`, then `Staging.commit`, discarding what was staged if any step fails.
    /// - Parameters:
    ///   - files: Every file of the site when `isWhole`, else those whose bytes changed.
    ///   - removals: Files the site no longer has.
    ///   - isWhole: Write a whole new folder and swap it in (a clean build).
    ///   - id: The id of the model that describes the new folder, for the marker.
    ///   - saveModel: Saves that model; called once the files are staged.
    @discardableResult
    func write(
        _ files: [RenderedPage], removing removals: [String] = [], isWhole: Bool = true,
        id: UInt64 = 0, saveModel: () -> Void = {}
    ) throws(BuildFailure) -> Summary {
        var staging = try begin(isWhole: isWhole)
        do {
            try staging.add(files)
            return try staging.commit(removing: removals, id: id, saveModel: saveModel)
        } catch {
            staging.discard()
            throw error
        }
    }
}
