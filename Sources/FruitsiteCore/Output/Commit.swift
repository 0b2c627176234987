/// One way of putting a staged site in place: a whole folder swapped in (`WholeSwap`), the
/// spare copy changed and swapped in (`SpareSwap`), or, for a mount point, which cannot be
/// swapped, its contents replaced (`ContentsReplacement`) or the changed files renamed into it
/// (`RenamedChanges`). `Commit` runs the steps, always in the same order.
protocol CommitStrategy {
    /// Completes what was staged and marks it as the site of model `id`, leaving the output
    /// folder as it was. The mark is the marker of a folder to be swapped in, or the commit
    /// record that tells the next build's recovery to finish the swap.
    mutating func prepare(id: UInt64) throws

    /// Puts the prepared site in place, its marker last: in one atomic step, or in steps
    /// that a failure undoes and that the next build's recovery finishes after a kill.
    /// - Returns: The strategy to go on with when the output folder proved to be a mount
    ///   point, which cannot be moved; nothing was changed then.
    mutating func swap() throws -> (any CommitStrategy)?

    /// Clears what the swap left behind (the old site, the staging folder) and tells what
    /// was written. The new site is in place: a problem here is a warning.
    func finish() -> OutputWriter.Summary
}

/// The one order every write follows, written once as git's `lockfile.c` writes every ref:
/// the new site staged beside the output folder (or inside it, for a mount point), the model
/// saved, the site swapped in, its marker last.
///
/// A build cut short anywhere leaves the old site or the new one, each with the marker of its
/// own model: until the swap, the output's marker names a model the cache no longer holds
/// once the new one is saved, so the next build starts clean; after it, the marker and the
/// cache agree. `CommitFaultTests` fails every system call of every strategy in turn to
/// prove it.
enum Commit {
    /// Runs `strategy`'s steps in that order.
    /// - Parameters:
    ///   - id: The id of the model that describes the new site, for its marker.
    ///   - saveModel: Saves that model; called once the site is staged, before the swap.
    /// - Throws: What a step before the swap threw, or a failed swap, which leaves the output
    ///   folder as it was.
    static func run(_ strategy: any CommitStrategy, id: UInt64, saveModel: () -> Void) throws
        -> OutputWriter.Summary
    {
        var strategy = strategy
        try strategy.prepare(id: id)
        saveModel()
        // From here the folder changes: keep Ctrl-C from stopping it half way.
        let instead = try SignalDeferral.run { () throws -> (any CommitStrategy)? in
            try strategy.swap()
        }
        if let instead { return try run(instead, id: id, saveModel: {}) }
        return strategy.finish()
    }
}
