extension SiteModel {
    /// A hash of every output file's record, which the output folder's marker records: a
    /// folder and a saved model belong together only when the two agree. Equal sites have
    /// equal ids, so a rebuild writes the marker a clean build would.
    var outputID: UInt64 {
        // Records are hashed one by one and added up, which needs no sorting, and lets every
        // core add up a share of the fruit pages.
        @Sendable func hash(_ kind: String, _ name: UInt64, _ record: OutputRecord) -> UInt64 {
            var hasher = StableHasher()
            hasher.combine(kind)
            hasher.combine(name)
            hasher.combine(record.inputHash)
            hasher.combine(record.outputHash)
            return hasher.value
        }
        let shares = entries.ids.concurrentShares { [entries] share in
            var (sum, count): (UInt64, UInt64) = (0, 0)
            for id in share {
                // Borrowed, not bound: a copy of an entry costs a dozen reference counts.
                guard let page = entries[id]?.page else { continue }
                sum &+= hash("fruit", entries[id]!.pathHash, page)
                count += 1
            }
            return (sum, count)
        }
        var (sum, count) = shares.reduce((UInt64(0), UInt64(0))) { ($0.0 &+ $1.0, $0.1 + $1.1) }
        for (path, record) in outputs {
            var name = StableHasher()
            name.combine(path)
            sum &+= hash("file", name.value, record)
            count += 1
        }
        var hasher = StableHasher()
        hasher.combine(count)
        hasher.combine(sum)
        return hasher.value
    }
}
