extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` holds, by binary
    /// search, in a collection where it is false up to some element and true from there on;
    /// `endIndex` when it holds for none.
    func partitioningIndex(where belongsInSecondPartition: (Element) -> Bool) -> Index {
        var (low, count) = (startIndex, self.count)
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if belongsInSecondPartition(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
