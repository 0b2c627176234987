/// A hash's keys and their values, in the order they were first set.
///
/// Looked up by comparing keys one by one rather than by hashing: the hashes a template
/// reads hold a few keys each (a fruit's summary has eight), where comparing the short key a
/// tag names with a handful of short strings costs less than hashing it once, and building
/// one hashes nothing. A hash with many keys (a large JSON or YAML mapping) keeps an index
/// of its keys as well, so that no lookup grows with its size.
public struct MustacheObject: Sendable {
    /// The keys, in the order they were first set.
    public private(set) var keys: [String] = []
    /// The values, at their keys' positions.
    private(set) var values: [MustacheValue] = []
    /// Each key's position, once there are more than `indexedCount` keys.
    private(set) var index: [String: Int]?

    private static let indexedCount = 16

    /// An empty hash.
    public init() {}

    /// A hash of `dictionary`'s keys and values, the keys in ascending order, so that the
    /// order of its fields is the same in every run.
    /// - Parameter dictionary: The keys and values.
    public init(_ dictionary: [String: MustacheValue]) {
        reserveCapacity(dictionary.count)
        for key in dictionary.keys.sorted() { self[key] = dictionary[key] }
    }

    /// A hash of `keys` and, at the same positions, `values`, for a caller that builds many
    /// hashes of the same keys: they all share one array of keys, and nothing is compared.
    /// - Precondition: The keys are distinct, and there are as many values.
    public init(uniqueKeys keys: [String], values: [MustacheValue]) {
        precondition(keys.count == values.count, "one value for each key")
        assert(Set(keys).count == keys.count, "distinct keys")
        (self.keys, self.values) = (keys, values)
        buildIndexIfLarge()
    }

    /// How many keys the hash has.
    public var count: Int { keys.count }

    /// Makes room for `count` keys.
    public mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
    }

    /// The value of `key`, nil when it has none; setting nil removes the key.
    public subscript(key: String) -> MustacheValue? {
        get { position(of: key).map { values[$0] } }
        set {
            switch (position(of: key), newValue) {
            case (let position?, let value?):
                values[position] = value
            case (let position?, nil):
                keys.remove(at: position)
                values.remove(at: position)
                index = nil
                buildIndexIfLarge()
            case (nil, let value?):
                keys.append(key)
                values.append(value)
                if index != nil {
                    index![key] = keys.count - 1
                } else {
                    buildIndexIfLarge()
                }
            case (nil, nil):
                break
            }
        }
    }

    /// Sets every key of `other` to its value there.
    public mutating func merge(_ other: MustacheObject) {
        reserveCapacity(count + other.count)
        for (key, value) in other { self[key] = value }
    }

    private func position(of key: String) -> Int? {
        Self.position(of: key, keys: keys, index: index)
    }

    /// The position of `key` among a hash's `keys`, found with its `index` when it has one;
    /// for a caller that holds the parts of a hash apart (the renderer's stack).
    @inline(__always)
    static func position(of key: String, keys: [String], index: [String: Int]?)
        -> Int?
    {
        if let index { return index[key] }
        // Lengths first: most keys differ in length, and comparing two strings that differ
        // costs a call into the runtime, where their lengths are at hand.
        let length = key.utf8.count
        return keys.firstIndex { $0.utf8.count == length && $0 == key }
    }

    private mutating func buildIndexIfLarge() {
        guard keys.count > Self.indexedCount else { return }
        index = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
    }
}

extension MustacheObject: Sequence {
    /// The keys and their values, in the order the keys were first set.
    public func makeIterator() -> some IteratorProtocol<(key: String, value: MustacheValue)> {
        zip(keys, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    public var underestimatedCount: Int { count }
}

extension MustacheObject: ExpressibleByDictionaryLiteral {
    /// Creates a hash from a literal; a repeated key keeps its last value.
    /// - Parameter elements: The key-value pairs.
    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self.init(pairs: elements)
    }

    /// A hash of `pairs` in their order; a repeated key keeps its last value, at its first
    /// place. Made as two arrays and then one hash: page data is written as literals, a few
    /// per page, and setting each key in turn went through a hash's changes each time.
    init(pairs: [(String, MustacheValue)]) {
        var keys: [String] = []
        var values: [MustacheValue] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let position = Self.position(of: key, keys: keys, index: nil) {
                values[position] = value
            } else {
                keys.append(key)
                values.append(value)
            }
        }
        self.init(uniqueKeys: keys, values: values)
    }
}

extension MustacheObject: Hashable {
    /// Hashes with the same keys and values are equal, in whatever order the keys were set.
    public static func == (left: MustacheObject, right: MustacheObject) -> Bool {
        left.count == right.count && left.allSatisfy { right[$0.key] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        // Each field's hash is added up, which does not depend on their order.
        var sum = 0
        for (key, value) in self {
            var field = Hasher()
            field.combine(key)
            field.combine(value)
            sum &+= field.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
