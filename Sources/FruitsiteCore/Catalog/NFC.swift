/// Unicode's canonical composition, NFC, by the decompositions in `NFC+Table.swift`, made
/// from the tables browsers normalize with (Unicode 17), and the standard library's
/// canonical combining classes.
///
/// Foundation's NFC cannot stand in: its tables stop at Unicode 15, so it left a name in
/// Kirat Rai or Tulu-Tigalari decomposed where the search in the browser composes it, and it
/// leaves a Hangul LV syllable and a trailing consonant (`가` + `ᆨ`) apart. The standard
/// library composes them, but only through API it keeps to itself.
enum NFC {
    /// `text` in NFC: each code point's canonical decomposition, the combining marks in
    /// canonical order, then every pair that composes composed, as UAX #15 defines it.
    static func normalize(_ text: String) -> String {
        // Most text, every name of Latin letters and emoji among it, is left as it is.
        if text.unicodeScalars.allSatisfy(isStable) { return text }
        var points: [UInt32] = []
        var classes: [UInt8] = []
        points.reserveCapacity(text.unicodeScalars.count + 8)
        classes.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars { decompose(scalar.value, into: &points, &classes) }
        order(&points, &classes)
        compose(&points, classes)
        var utf8: [UInt8] = []
        utf8.reserveCapacity(points.count * 4)
        for point in points { utf8 += UTF8.encode(Unicode.Scalar(point)!)! }
        return String(decoding: utf8, as: UTF8.self)
    }

    /// Whether NFC leaves `scalar` as it is wherever it stands: it has no decomposition that
    /// NFC keeps, is a starter, and composes with nothing before it. True of every code point
    /// below U+0300, where the combining marks start, and of the emoji blocks with their
    /// joiner and variation selector, which is most of what front matter holds.
    static func isStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case ..<0x300, 0x200D, 0xFE0F, 0x1F000..<0x1FB00: return true
        default:
            return !tables.has(.unstable, scalar.value) && !Hangul.isVowelOrTrailing(scalar.value)
                && scalar.properties.canonicalCombiningClass == .notReordered
        }
    }

    // MARK: - The three steps

    private static func decompose(
        _ point: UInt32, into points: inout [UInt32], _ classes: inout [UInt8]
    ) {
        // Nothing decomposes below `À`, and no mark comes before U+0300.
        if point < 0xC0 {
            points.append(point)
            classes.append(0)
        } else if let parts = Hangul.decomposition(of: point) {
            points += parts
            classes += repeatElement(0, count: parts.count)
        } else if tables.has(.decomposes, point), let parts = tables.decompositions[point] {
            for part in parts { decompose(part, into: &points, &classes) }
        } else {
            points.append(point)
            classes.append(
                UInt8(Unicode.Scalar(point)!.properties.canonicalCombiningClass.rawValue))
        }
    }

    /// Sorts each run of combining marks by class, keeping the order of equal ones.
    private static func order(_ points: inout [UInt32], _ classes: inout [UInt8]) {
        for index in points.indices where classes[index] != 0 {
            var place = index
            while place > 0, classes[place - 1] > classes[place] {
                points.swapAt(place - 1, place)
                classes.swapAt(place - 1, place)
                place -= 1
            }
        }
    }

    /// Composes each code point with the last starter before it when nothing between them
    /// blocks it (a starter, or a mark of the same class or higher), in place.
    private static func compose(_ points: inout [UInt32], _ classes: [UInt8]) {
        var kept = 0
        var starter: Int?
        // The class of the last code point kept after the starter; nil when there is none.
        var lastClass: UInt8?
        for index in points.indices {
            let (point, pointClass) = (points[index], classes[index])
            if let starter, lastClass.map({ $0 < pointClass }) ?? true,
                let composite = composite(of: points[starter], point)
            {
                points[starter] = composite
                continue
            }
            if pointClass == 0 {
                (starter, lastClass) = (kept, nil)
            } else {
                lastClass = pointClass
            }
            points[kept] = point
            kept += 1
        }
        points.removeLast(points.count - kept)
    }

    private static func composite(of first: UInt32, _ second: UInt32) -> UInt32? {
        if let hangul = Hangul.composite(of: first, second) { return hangul }
        guard tables.has(.second, second) else { return nil }
        return tables.compositions[UInt64(first) << 32 | UInt64(second)]
    }

    // MARK: - Tables

    /// The table read once: each code point's decomposition, the pairs that compose, and
    /// flags for each code point up to the last the table names.
    private struct Tables: Sendable {
        struct Flags: OptionSet {
            let rawValue: UInt8
            /// NFC may change it: it has a decomposition NFC keeps, or may compose with what
            /// stands before it (`second`, or a decomposition that starts with one).
            static let unstable = Flags(rawValue: 1)
            static let decomposes = Flags(rawValue: 2)
            /// It composes with a code point before it.
            static let second = Flags(rawValue: 4)
        }

        /// One level of each decomposition: a composite's pair, or the whole of one NFC
        /// never composes.
        var decompositions: [UInt32: [UInt32]] = [:]
        var compositions: [UInt64: UInt32] = [:]
        private var flags: [UInt8]

        func has(_ flag: Flags, _ point: UInt32) -> Bool {
            Int(point) < flags.count && flags[Int(point)] & flag.rawValue != 0
        }

        init(_ table: String) {
            var entries: [(point: UInt32, parts: [UInt32], isComposite: Bool)] = []
            // Read as bytes: split into Characters and parsed as numbers, the table took 63 M
            // instructions to read, 3.5% of a clean build of 2,000 fruits.
            var (numbers, digits, isComposite) = ([UInt32](), UInt32?.none, false)
            for byte in table.utf8 + [UInt8(ascii: " ")] {
                let digit: UInt8? =
                    switch byte {
                    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
                    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
                    default: nil
                    }
                if let digit {
                    digits = (digits ?? 0) << 4 | UInt32(digit)
                    continue
                }
                if let number = digits { numbers.append(number) }
                digits = nil
                switch byte {
                case UInt8(ascii: "="): isComposite = true
                case UInt8(ascii: ">"), UInt8(ascii: "+"), UInt8(ascii: "."): break
                default:
                    guard let point = numbers.first else { continue }
                    entries.append((point, Array(numbers.dropFirst()), isComposite))
                    (numbers, isComposite) = ([], false)
                }
            }
            let last = entries.map { max($0.point, $0.parts.max()!) }.max()!
            flags = [UInt8](repeating: 0, count: Int(last) + 1)
            for (point, parts, isComposite) in entries {
                decompositions[point] = parts
                flags[Int(point)] |= Flags.decomposes.rawValue
                if isComposite {
                    compositions[UInt64(parts[0]) << 32 | UInt64(parts[1])] = point
                    flags[Int(parts[1])] |= Flags([.second, .unstable]).rawValue
                } else {
                    flags[Int(point)] |= Flags.unstable.rawValue
                }
            }
            // A composite whose decomposition starts with a code point that composes with
            // what stands before it (Kirat Rai's U+16D68 is U+16D67 twice) may compose too.
            func leading(_ point: UInt32) -> UInt32 {
                decompositions[point].map { leading($0[0]) } ?? point
            }
            for point in decompositions.keys where has(.second, leading(point)) {
                flags[Int(point)] |= Flags.unstable.rawValue
            }
        }
    }

    private static let tables = Tables(table)
}
