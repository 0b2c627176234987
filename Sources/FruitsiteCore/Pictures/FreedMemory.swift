#if canImport(Glibc)
    import Glibc
#endif

/// Gives back to the system the memory the allocator keeps after it is freed.
///
/// A release build on Linux allocates with jemalloc, which keeps freed pages for ten seconds
/// to reuse them: right for pages, which are many and small, but a picture's decoding frees
/// megabytes at once, and kept, those were most of the peak of a build of photos: 20 photos'
/// build peaked at 176 MB, and at 110 MB with each picture's given back.
enum FreedMemory {
    #if os(Linux)
        private typealias Control =
            @convention(c) (
                UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
                UnsafeMutableRawPointer?, Int
            ) -> Int32

        /// jemalloc's `mallctl`, when the process allocates with it; looked up rather than
        /// linked, since only a release build of the executable links jemalloc.
        private static let control: Control? = dlsym(nil, "mallctl").map {
            unsafeBitCast($0, to: Control.self)
        }
    #endif

    /// Gives back what jemalloc keeps of the memory freed so far, in every thread's arena
    /// (`arena.<MALLCTL_ARENAS_ALL>.purge`). Other allocators keep less, and are left to it.
    static func giveBack() {
        #if os(Linux)
            _ = control?("arena.4096.purge", nil, nil, nil, 0)
        #endif
    }
}
