/// When an entry says its fruit was added (`date:`): a YAML date (`2024-05-01`) or timestamp
/// (`2024-05-01T09:30:00Z`, `2024-05-01 09:30:00 +02:00`), kept as whole seconds since 1970 in
/// UTC. A date alone is midnight UTC; a timestamp without a zone is UTC, as in YAML 1.1.
public struct EntryDate: Sendable, Hashable, Comparable {
    public var seconds: Int64

    /// What `init(yaml:)` reads, as an error message says it.
    public static let expectedForm =
        "a date like 2024-05-01 or a timestamp like 2024-05-01T09:30:00Z"

    public init(seconds: Int64) {
        self.seconds = seconds
    }

    /// Reads YAML 1.1's timestamp forms; nil for anything else, for a day that does not
    /// exist (`2023-02-29`), or for a moment outside the years 0001 to 9999 in UTC (HTML's
    /// `datetime` has no year 0). Fractions of a second are dropped.
    public init?(yaml text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4...4), scanner.take("-"),
            let month = scanner.digits(1...2), scanner.take("-"), let day = scanner.digits(1...2),
            (1...12).contains(month), (1...Self.daysIn(month, of: year)).contains(day)
        else { return nil }
        var seconds = Self.days(year: year, month: month, day: day) * 86_400
        if scanner.isAtEnd {
            // The date-only form has two-digit months and days.
            guard text.utf8.count == 10, seconds >= Self.earliest else { return nil }
            self.seconds = seconds
            return
        }
        guard scanner.take("T") || scanner.take("t") || scanner.skipBlanks(),
            let hour = scanner.digits(1...2), scanner.take(":"),
            let minute = scanner.digits(2...2), scanner.take(":"),
            let second = scanner.digits(2...2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        seconds += hour * 3_600 + minute * 60 + second
        if scanner.take(".") { _ = scanner.digits(0...64) }
        _ = scanner.skipBlanks()
        if scanner.take("Z") {
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(1...2), hours < 24 else { return nil }
            var minutes: Int64 = 0
            if scanner.take(":") {
                guard let value = scanner.digits(2...2), value < 60 else { return nil }
                minutes = value
            }
            seconds -= sign * (hours * 3_600 + minutes * 60)
        }
        // In UTC, as it is written out, the moment must still have a four-digit year: RFC 3339
        // has no other, and 9999-12-31T23:00:00-02:00 is in the year 10000.
        guard scanner.isAtEnd, (Self.earliest...Self.latest).contains(seconds) else {
            return nil
        }
        self.seconds = seconds
    }

    /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    private static let earliest = days(year: 1, month: 1, day: 1) * 86_400
    private static let latest = days(year: 10_000, month: 1, day: 1) * 86_400 - 1

    public static func < (lhs: EntryDate, rhs: EntryDate) -> Bool { lhs.seconds < rhs.seconds }

    /// The day in UTC: `2024-05-01`.
    public var day: String { text(withTime: false) }

    /// The day in UTC as days since 1970-01-01 (negative before).
    var daysSince1970: Int64 { floorDivide(seconds, 86_400) }

    /// How front matter writes it, as `init(yaml:)` reads it back: the day alone for
    /// midnight UTC, which is what a date alone means, else the timestamp in UTC.
    public var yamlText: String { seconds % 86_400 == 0 ? day : timestamp }

    /// The moment in RFC 3339, in UTC: `2024-05-01T09:30:00Z`, as feeds and `<time>` want it.
    public var timestamp: String { text(withTime: true) }

    /// The day, and the time if asked, written digit by digit: a sitemap writes one for each
    /// of its fruits, and making a string of each number cost a microsecond apiece.
    private func text(withTime: Bool) -> String {
        let days = daysSince1970
        let (year, month, day) = Self.civil(fromDays: days)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        // Zero-padded to `width` digits, as long as it needs to be.
        func put(_ value: Int64, _ width: Int, then separator: Character?) {
            if value >= 0 {
                var divisor: Int64 = 1
                for _ in 1..<width { divisor *= 10 }
                while value / divisor >= 10 { divisor *= 10 }
                while divisor > 0 {
                    bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                    divisor /= 10
                }
            } else {
                let digits = String(value).utf8
                bytes += repeatElement(UInt8(ascii: "0"), count: max(width - digits.count, 0))
                bytes += digits
            }
            if let separator { bytes.append(separator.asciiValue!) }
        }
        put(year, 4, then: "-")
        put(month, 2, then: "-")
        put(day, 2, then: withTime ? "T" : nil)
        if withTime {
            let time = seconds - days * 86_400
            put(time / 3_600, 2, then: ":")
            put(time / 60 % 60, 2, then: ":")
            put(time % 60, 2, then: "Z")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - The calendar

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let year = month <= 2 ? year - 1 : year
        let era = floorDivide(year, 400)
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` after 1970-01-01 (`civil_from_days`).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra =
            (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func daysIn(_ month: Int64, of year: Int64) -> Int64 {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Reads a timestamp's parts, byte by byte.
    private struct Scanner {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { offset == bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard offset < bytes.count, bytes[offset] == UInt8(ascii: character) else {
                return false
            }
            offset += 1
            return true
        }

        /// Spaces and tabs; whether there was at least one.
        mutating func skipBlanks() -> Bool {
            let start = offset
            while offset < bytes.count, bytes[offset] == 0x20 || bytes[offset] == 0x09 {
                offset += 1
            }
            return offset > start
        }

        mutating func sign() -> Int64? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }

        /// A run of ASCII digits whose length is in `count`, as a number.
        mutating func digits(_ count: ClosedRange<Int>) -> Int64? {
            var (value, length): (Int64, Int) = (0, 0)
            while offset < bytes.count, (0x30...0x39).contains(bytes[offset]),
                length < count.upperBound
            {
                if length < 18 { value = value * 10 + Int64(bytes[offset] - 0x30) }
                offset += 1
                length += 1
            }
            return count.contains(length) ? value : nil
        }
    }
}

private func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
    value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
}
