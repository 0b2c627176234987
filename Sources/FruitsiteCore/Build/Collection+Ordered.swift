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

extension Array {
    /// This array, in the order `precedes` gives, with `others`, in that order too, merged
    /// in: each put before the first element it precedes, found by binary search. For a few
    /// elements merged into many, where comparing them with every element would cost more.
    func merging(_ others: [Element], by precedes: (Element, Element) -> Bool) -> [Element] {
        guard !others.isEmpty else { return self }
        var merged: [Element] = []
        merged.reserveCapacity(count + others.count)
        var start = startIndex
        for other in others {
            let place = self[start...].partitioningIndex(where: { precedes(other, $0) })
            merged += self[start..<place]
            merged.append(other)
            start = place
        }
        merged += self[start...]
        return merged
    }
}
