import Mustache
import Testing

@Suite struct MustacheObjectTests {
    /// Equal hashes are equal, and hash alike, whatever order their keys were set in.
    @Test func equalityIgnoresTheOrderOfKeys() {
        let forward: MustacheObject = ["a": 1, "b": "two", "c": [true]]
        let backward: MustacheObject = ["c": [true], "b": "two", "a": 1]
        #expect(forward == backward)
        #expect(forward.hashValue == backward.hashValue)
        #expect(forward != ["a": 1, "b": "two"])
        #expect(forward != ["a": 1, "b": "two", "c": [false]])
    }

    /// A literal's repeated key keeps its last value at its first place, as setting the keys
    /// in turn would, in a hash and in a value.
    @Test func aLiteralsRepeatedKeyKeepsItsLastValue() {
        let object: MustacheObject = ["a": 1, "b": 2, "a": 3, "c": 4, "b": 5]
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == 3 && object["b"] == 5 && object["c"] == 4)
        let value: MustacheValue = ["a": 1, "a": 2]
        #expect(value == .object(["a": 2]))
    }

    @Test func setKeepsTheFirstPlaceAndNilRemoves() {
        var object: MustacheObject = ["a": 1, "b": 2]
        object["a"] = 3
        object["c"] = 4
        #expect(object.keys == ["a", "b", "c"])
        #expect(object["a"] == 3)
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["b"] == nil)
        object.merge(["c": 5, "d": 6])
        #expect(Array(object.map(\.key)) == ["a", "c", "d"])
        #expect(object["c"] == 5)
    }

    /// A hash made from parallel arrays is the hash the same pairs make one by one, on
    /// either side of the size that keeps an index, and stays a hash that can change.
    @Test func uniqueKeysAndValuesMakeTheSameHash() {
        for size in [0, 3, 16, 17, 40] {
            let keys = (0..<size).map { "key\($0)" }
            let values = (0..<size).map { MustacheValue.int($0) }
            var made = MustacheObject(uniqueKeys: keys, values: values)
            var expected = MustacheObject()
            for (key, value) in zip(keys, values) { expected[key] = value }
            #expect(made == expected)
            #expect(made.keys == keys)
            for (key, value) in zip(keys, values) { #expect(made[key] == value) }
            #expect(made["absent"] == nil)
            made["key1"] = nil
            made["new"] = "value"
            expected["key1"] = nil
            expected["new"] = "value"
            #expect(made == expected)
            #expect(made["new"] == "value")
        }
    }

    /// Past sixteen keys a hash keeps an index: lookups, changes and removals must agree with
    /// the keys themselves on either side of that size.
    @Test func aLargeHashFindsEveryKey() throws {
        var object = MustacheObject()
        for number in 0..<40 { object["key\(number)"] = .int(number) }
        for number in 0..<40 { #expect(object["key\(number)"] == .int(number)) }
        for number in stride(from: 0, to: 40, by: 2) { object["key\(number)"] = nil }
        #expect(object.count == 20)
        for number in 0..<40 {
            #expect(object["key\(number)"] == (number.isMultiple(of: 2) ? nil : .int(number)))
        }
        for number in 0..<30 { object["key\(number)"] = nil }
        #expect(object.keys == (30..<40).filter { !$0.isMultiple(of: 2) }.map { "key\($0)" })
        object["new"] = "value"
        #expect(object["new"] == "value")
        #expect(object["key31"] == 31)
        let template = try MustacheTemplate("{{key39}} {{new}} {{key38}}.")
        #expect(try template.render(.object(object)) == "39 value .")
    }

    /// A dictionary's keys are set in ascending order, the same in every run.
    @Test func fromADictionaryTheKeysAreSorted() {
        let object = MustacheObject(["pear": 1, "apple": 2, "fig": 3])
        #expect(object.keys == ["apple", "fig", "pear"])
    }
}
