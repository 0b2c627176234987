/// An entry's file as the model recorded it when the file was last seen: what a scan compares
/// the content folder with (`ContentScanner.scan(against:only:)`).
struct RecordedFile: Sendable {
    var id: Int
    var path: String
    /// See `SiteModel.Entry`.
    var status: FileStatus?
    var verifiedAt: Int64
    var sourceHash: UInt64

    init(id: Int, path: String, status: FileStatus?, verifiedAt: Int64, sourceHash: UInt64) {
        self.id = id
        self.path = path
        self.status = status
        self.verifiedAt = verifiedAt
        self.sourceHash = sourceHash
    }

    /// The file of the entry `id`, as `entry` records it.
    init(id: Int, _ entry: SiteModel.Entry) {
        self.init(
            id: id, path: entry.path, status: entry.status, verifiedAt: entry.verifiedAt,
            sourceHash: entry.sourceHash)
    }

    /// Whether `status`, the file's status now, vouches that the file has the bytes it had
    /// when recorded: it is the recorded status, settled before the file was last seen
    /// (`FileStatus.isSettled(at:)`).
    func isVouched(by status: FileStatus?) -> Bool {
        guard let status, status == self.status else { return false }
        return status.isSettled(at: verifiedAt)
    }
}
