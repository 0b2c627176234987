extension SearchShards {
    /// Ascending positions as a run list: `[gap, length, gap, length, …]`, each run starting
    /// `gap` after the end of the one before (the first, after 0). A position again is ignored.
    static func runList(_ positions: some Sequence<Int>) -> [UInt8] {
        var runs: [Run] = []
        for position in positions.lazy.map(Int32.init) {
            if runs.isEmpty || !runs[runs.count - 1].absorbs(position) {
                runs.append(Run(start: position, end: position + 1))
            }
        }
        var json: [UInt8] = []
        append(runs, to: &json)
        return json
    }

    /// Consecutive positions, from `start` to `end` (exclusive).
    struct Run: Sendable, Equatable {
        var start: Int32
        var end: Int32

        /// Takes in a position from this run's start on: the next one extends it, one already
        /// in it is ignored. False for one past its end, which starts a run of its own.
        mutating func absorbs(_ position: Int32) -> Bool {
            if end == position { end += 1 }
            return end > position
        }
    }

    /// Appends ascending runs as a run list (`runList(_:)`).
    ///
    /// Into a buffer of the most bytes the runs can take, then appended at once: appended byte
    /// by byte, the gram files' 250,000 numbers at 10,000 fruits were 30M instructions.
    static func append(_ runs: some Collection<Run>, to json: inout [UInt8]) {
        // Two numbers of at most ten digits and two commas a run, and the brackets.
        json += [UInt8](unsafeUninitializedCapacity: 2 + runs.count * 22) { buffer, count in
            var end = 0
            func put(_ number: Int32) {
                var digits = 1
                var rest = number / 10
                while rest > 0 { (digits, rest) = (digits + 1, rest / 10) }
                rest = number
                for offset in (end..<end + digits).reversed() {
                    buffer[offset] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                end += digits
            }
            buffer[0] = UInt8(ascii: "[")
            end = 1
            var previous: Int32 = 0
            for run in runs {
                if end > 1 {
                    buffer[end] = UInt8(ascii: ",")
                    end += 1
                }
                put(run.start - previous)
                buffer[end] = UInt8(ascii: ",")
                end += 1
                put(run.end - run.start)
                previous = run.end
            }
            buffer[end] = UInt8(ascii: "]")
            count = end + 1
        }
    }
}
