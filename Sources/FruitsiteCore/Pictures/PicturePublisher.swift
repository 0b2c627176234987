import Foundation

/// The picture stage of a build: writes the variants the output folder lacks, each taken
/// from the cache folder when it holds it, else encoded from its source (and kept there for
/// the next build, or the next machine that restores the folder).
///
/// A source's variants come from one decode (`PictureEncoder.encode`); sources are encoded a
/// few at a time on every core, and handed on as soon as each run is done, so that memory
/// holds the variants of a run, not of the site.
struct PicturePublisher: Sendable {
    /// One source whose variants the output folder lacks.
    struct Source: Sendable {
        var image: FruitImage
        /// Its planned variants, all of them, in the order the encoder makes them.
        var variants: [PicturePlan.Variant]
        /// The paths among them to write.
        var missing: Set<String>
    }

    var settings: PictureSettings
    var fileSystem: FileSystem
    /// Where variants are kept between builds (`BuildOptions.pictureCacheDirectory`).
    var cacheDirectory: String?
    /// Called with (sources done, sources in all).
    var onProgress: (@Sendable (Int, Int) -> Void)?

    /// Writes the missing variants of `sources`, a run at a time, through `emit`.
    /// - Throws: `BuildFailure` with an error for each source that could not be read or
    ///   encoded, at its path, or what `emit` throws.
    /// - Returns: How many sources were encoded, and how many taken from the cache.
    @discardableResult
    func publish(
        _ sources: [Source], emit: ([RenderedPage]) throws(BuildFailure) -> Void
    ) throws(BuildFailure) -> (encoded: Int, cached: Int) {
        guard !sources.isEmpty else { return (0, 0) }
        let version: String
        do {
            version = try PictureEncoder.encoderVersion
        } catch {
            let location = SourceLocation(path: sources[0].image.path)
            throw BuildFailure([.error(at: location, "\(error)")])
        }
        let cache = cacheDirectory
        if let cache {
            try? FileManager.default.createDirectory(
                atPath: cache, withIntermediateDirectories: true)
        }
        var diagnostics: [Diagnostic] = []
        var encoded = 0
        let run = processorCount * 2
        for start in stride(from: 0, to: sources.count, by: run) {
            let batch = Array(sources[start..<min(start + run, sources.count)])
            let results = batch.concurrentMap { source in
                Result { () throws(BuildFailure) in try variants(of: source, version, cache) }
            }
            var files: [RenderedPage] = []
            for result in results {
                switch result {
                case .success(let made):
                    files += made.files
                    if made.isEncoded { encoded += 1 }
                case .failure(let failure): diagnostics += failure.diagnostics
                }
            }
            onProgress?(min(start + run, sources.count), sources.count)
            if diagnostics.isEmpty { try emit(files) }
        }
        if !diagnostics.isEmpty { throw BuildFailure(diagnostics.sortedByLocation()) }
        return (encoded, sources.count - encoded)
    }

    /// The missing variants of `source`: from the cache when it holds every one, else all
    /// encoded and kept in it.
    private func variants(of source: Source, _ version: String, _ cache: String?)
        throws(BuildFailure) -> (files: [RenderedPage], isEncoded: Bool)
    {
        let wanted = source.variants.filter { source.missing.contains($0.path) }
        let cached = cache.map { cache in
            wanted.map {
                try? Data(contentsOf: URL(fileURLWithPath: cachePath($0, version, cache)))
            }
        }
        if let cached, cached.allSatisfy({ $0 != nil }) {
            return (
                zip(wanted, cached).map { RenderedPage(path: $0.path, bytes: [UInt8]($1!)) }, false
            )
        }
        let location = SourceLocation(path: source.image.path)
        let encoded: EncodedPicture
        do {
            let bytes = try fileSystem.read(source.image.path, ContentScanner.maximumPictureSize)
            // Its entry was planned from other bytes: the file changed during the build.
            guard StableHasher.hash(bytes) == source.image.sourceHash else {
                throw BuildFailure([
                    .error(
                        at: location, "the picture changed while the site was built",
                        hint: "build again")
                ])
            }
            encoded = try PictureEncoder(settings: settings).encode(Data(bytes))
            FreedMemory.giveBack()
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure([.error(at: location, "cannot publish the picture: \(error)")])
        }
        precondition(
            zip(encoded.variants, source.variants).allSatisfy { made, planned in
                (made.format, made.width, made.height)
                    == (planned.format, planned.width, planned.height)
            } && encoded.variants.count == source.variants.count,
            "the plan of a picture's variants differs from what the encoder made")
        var pages: [RenderedPage] = []
        for (made, planned) in zip(encoded.variants, source.variants) {
            if let cache {
                // Kept whole or not at all: a variant cut short would be published next time.
                try? made.bytes.write(
                    to: URL(fileURLWithPath: cachePath(planned, version, cache)),
                    options: .atomic)
            }
            if source.missing.contains(planned.path) {
                pages.append(RenderedPage(path: planned.path, bytes: [UInt8](made.bytes)))
            }
        }
        return (pages, true)
    }

    /// Where the cache keeps a variant: named by its stamp and the encoder's versions, so
    /// that another libvips encodes it again rather than reusing bytes it would not make.
    private func cachePath(_ variant: PicturePlan.Variant, _ version: String, _ cache: String)
        -> String
    {
        var hasher = StableHasher()
        hasher.combine(variant.stamp)
        hasher.combine(version)
        return "\(cache)/\(ContentName.stamp(hasher.value)).\(variant.format.fileExtension)"
    }
}
