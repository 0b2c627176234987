/// The model a build starts from: one in memory (an empty one, or the one `serve` keeps), or
/// the one the cache holds, which is decoded whole only once the build needs more of it than
/// each entry's file as recorded: a scan that finds every file as recorded needs no more.
enum StartingModel: Sendable {
    case decoded(SiteModel)
    case saved(SavedModel)
    /// An empty model, in place of a saved one whose rest turned out damaged when decoded.
    case damaged(SiteModel)

    var settings: SiteModel.Settings {
        switch self {
        case .decoded(let model), .damaged(let model): model.settings
        case .saved(let saved): saved.head.settings
        }
    }

    /// See `SiteModel.folders`.
    var folders: [SiteModel.Folder]? {
        switch self {
        case .decoded(let model), .damaged(let model): model.folders
        case .saved(let saved): saved.head.folders
        }
    }

    /// See `SiteModel.listedAt`.
    var listedAt: Int64 {
        switch self {
        case .decoded(let model), .damaged(let model): model.listedAt
        case .saved(let saved): saved.head.listedAt
        }
    }

    /// See `SiteModel.isLinkFree`, which no saved model knows.
    var isLinkFree: Bool {
        switch self {
        case .decoded(let model), .damaged(let model): model.isLinkFree
        case .saved: false
        }
    }

    /// What the build that saved the model reported; nil for a model in memory.
    var report: ModelStore.Report? {
        switch self {
        case .decoded, .damaged: nil
        case .saved(let saved): saved.head.report
        }
    }

    /// Each entry's file and picture as recorded, in id order.
    func recordedFiles() -> RecordedFiles {
        switch self {
        case .decoded(let model), .damaged(let model):
            var files = RecordedFiles()
            for id in model.ids {
                files.append(model[id].path, id, in: model)
            }
            return files
        case .saved(let saved):
            return saved.recordedFiles()
        }
    }

    /// The model whole, decoded now if it was not yet, and kept decoded; an empty one in
    /// place of a saved one whose rest turns out damaged (`damaged`).
    mutating func decode() -> SiteModel {
        switch self {
        case .decoded(let model), .damaged(let model):
            return model
        case .saved(let saved):
            if let model = saved.model() {
                self = .decoded(model)
                return model
            }
            let empty = SiteModel(settings: saved.head.settings)
            self = .damaged(empty)
            return empty
        }
    }

    /// The model whole, decoded already (`SiteBuilder.load` decodes the model of a build
    /// that changes it): the only copy, to change in place.
    consuming func model() -> SiteModel {
        switch consume self {
        case .decoded(let model), .damaged(let model): model
        case .saved: preconditionFailure("a saved model is decoded before it is changed")
        }
    }
}
