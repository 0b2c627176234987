/// Files a scan looks at, their paths in one list, each with its entry's file as the model
/// recorded it when the file was last seen: what the scan compares each file with
/// (`ContentScanner.scan(against:only:)`).
struct RecordedFiles: Sendable {
    /// An entry's file as recorded.
    struct File: Sendable {
        var id: EntryID
        /// See `SiteModel.Entry`.
        var status: FileStatus?
        var verifiedAt: Int64
        var sourceHash: UInt64

        /// The file of the entry `id`, as `entry` records it.
        init(id: EntryID, _ entry: SiteModel.Entry) {
            self.init(
                id: id, status: entry.status, verifiedAt: entry.verifiedAt,
                sourceHash: entry.sourceHash)
        }

        init(id: EntryID, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64) {
            self.id = id
            self.status = status
            self.verifiedAt = verifiedAt
            self.sourceHash = sourceHash
        }

        /// Whether `status`, the file's status now, vouches that the file has the bytes it
        /// had when recorded: it is the recorded status, settled before the file was last
        /// seen (`FileStatus.isSettled(at:)`).
        func isVouched(by status: FileStatus?) -> Bool {
            guard let status, status == self.status else { return false }
            return status.isSettled(at: verifiedAt)
        }
    }

    var paths = PathList()
    /// The file at each of `paths` as recorded; nil for a file no entry has.
    var recorded: [File?] = []

    mutating func append(_ path: String, _ file: File?) {
        paths.append(path)
        recorded.append(file)
    }

    /// Adds the files of `other` after these.
    mutating func append(contentsOf other: RecordedFiles) {
        paths.append(contentsOf: other.paths)
        recorded += other.recorded
    }
}
