/// Files a scan looks at, their paths in one list, each with its entry's file as the model
/// recorded it when the file was last seen, and the pictures those entries name: what the
/// scan compares each file with (`ContentScanner.scan(against:only:)`).
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
        /// had when recorded (see `vouches(_:for:)`).
        func isVouched(by status: FileStatus?) -> Bool {
            vouches(status, for: self.status)
        }

        /// Whether `status`, a status taken now of a file this entry read, vouches that the
        /// file has the bytes it had when its status was `recorded`: it is that status,
        /// settled before the entry was last seen (`FileStatus.isSettled(at:)`).
        func vouches(_ status: FileStatus?, for recorded: FileStatus?) -> Bool {
            guard let status, status == recorded else { return false }
            return status.isSettled(at: verifiedAt)
        }
    }

    /// A picture a recorded file's entry names: the index of that file in `recorded`, and the
    /// picture's status as recorded (`SiteModel.PictureFile`).
    struct Picture: Sendable {
        var file: Int
        var status: FileStatus?
    }

    var paths = PathList()
    /// The file at each of `paths` as recorded; nil for a file no entry has.
    var recorded: [File?] = []
    /// The path of each of `pictures`.
    var picturePaths = PathList()
    /// The pictures the recorded files' entries name, in the order of their files.
    var pictures: [Picture] = []

    /// Adds the file at `path`, that of the entry `id` of `model` if it has one.
    mutating func append(_ path: String, _ id: EntryID?, in model: SiteModel) {
        paths.append(path)
        recorded.append(id.map { File(id: $0, model[$0]) })
        if let id, let picture = model[id].picture {
            picturePaths.append(picture.path)
            pictures.append(Picture(file: recorded.count - 1, status: picture.status))
        }
    }

    /// The index in `recorded` of each file whose entry's picture may have changed:
    /// `statuses`, the pictures' statuses now, do not vouch for it.
    func filesWithChangedPictures(statuses: [FileStatus?]) -> [Int] {
        zip(pictures, statuses).compactMap { picture, status in
            recorded[picture.file]!.vouches(status, for: picture.status) ? nil : picture.file
        }
    }
}
