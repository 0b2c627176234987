import Foundation
import _FoundationICU

/// How a language writes a day, as ICU's long date style does: 2024-05-01 is "May 1, 2024"
/// in English, "1 mai 2024" in French, "1 مايو، 2024" in Arabic.
///
/// The day is the one in UTC, as `EntryDate.day` has it, whatever the machine's time zone; in
/// the proleptic Gregorian calendar, as `EntryDate` counts (ICU's Gregorian calendar is Julian
/// before October 1582), or in the calendar the language's region uses (`ar-SA`'s is the
/// Islamic one). Its digits are those the build writes numbers with (`NumberFormat`).
final class DateFormat: @unchecked Sendable {
    /// The BCP 47 language tag whose days it writes.
    let language: String
    /// The digits it writes, as CLDR names them (`latn`, `arab`).
    let numberingSystem: String
    /// ICU's format once opened, and the days it has written, used under `lock` (which the
    /// thread sanitizer understands): ICU's C API promises no more for it.
    private var format: Format = .unopened
    private var written: [Int64: String] = [:]
    private let lock = NSLock()

    /// ICU's format, opened at the first date: a catalog without dates has no use for it,
    /// and opening one loads some 5 MiB of ICU's data and takes a millisecond.
    private enum Format {
        case unopened
        case opened(UnsafeMutablePointer<UDateFormat?>)
        /// ICU could not open one: days are written as ISO 8601's.
        case unavailable
    }

    /// How many days a format keeps written: a listing shows a fruit's date on every page that
    /// lists it, and ICU takes some 3 µs to write one, a lookup a tenth of that; the bound
    /// keeps a catalog of a million days from holding them all.
    static let writtenLimit = 1 << 16

    /// The format of `language` writing digits of `numberingSystem` (CLDR's name, `latn`),
    /// made once per language in a process: what it has written serves every later build of a
    /// `serve`.
    static func of(_ language: String, numberingSystem: String) -> DateFormat {
        madeLock.withLock {
            let key = language + "\u{0}" + numberingSystem
            if let format = made[key] { return format }
            let format = DateFormat(language: language, numberingSystem: numberingSystem)
            made[key] = format
            return format
        }
    }

    /// The formats made so far, under `madeLock`.
    nonisolated(unsafe) private static var made: [String: DateFormat] = [:]
    private static let madeLock = NSLock()

    private init(language: String, numberingSystem: String) {
        (self.language, self.numberingSystem) = (language, numberingSystem)
    }

    deinit { if case .opened(let format) = format { swift_udat_close(format) } }

    /// `date`'s day in UTC as the language writes it.
    func string(_ date: EntryDate) -> String {
        let day = date.daysSince1970
        return lock.withLock { () -> String in
            if let text = written[day] { return text }
            if case .unopened = format { format = open() }
            guard case .opened(let format) = format else { return date.day }
            var status = U_ZERO_ERROR
            var text = [UChar](repeating: 0, count: 96)
            // Noon of the day, which no calendar's day boundary in ICU is near.
            let length = swift_udat_format(
                format, (Double(day) * 86_400 + 43_200) * 1_000, &text, Int32(text.count), nil,
                &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, length <= text.count
            else { return date.day }
            let result = String(decoding: text[..<Int(length)], as: UTF16.self)
            if written.count < Self.writtenLimit { written[day] = result }
            return result
        }
    }

    /// Opens the long date format of the language, in UTC, with the digits of
    /// `numberingSystem`, its calendar made proleptic.
    private func open() -> Format {
        var status = U_ZERO_ERROR
        let zone = Array("UTC".utf16)
        guard let locale = icuLocale(of: language),
            let format = swift_udat_open(
                UDAT_NONE, UDAT_LONG, Self.locale(locale, numberingSystem: numberingSystem),
                zone, Int32(zone.count), nil, 0, &status)
        else { return .unavailable }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else {
            swift_udat_close(format)
            return .unavailable
        }
        Self.makeProleptic(format)
        return .opened(format)
    }

    /// How many days it keeps written.
    var writtenCount: Int { lock.withLock { written.count } }

    /// Whether ICU's format has been opened, by a first date.
    var isOpened: Bool {
        lock.withLock {
            if case .opened = format { true } else { false }
        }
    }

    /// ICU's locale ID with its keyword `numbers` set to `system`.
    private static func locale(_ locale: String, numberingSystem system: String) -> String {
        var status = U_ZERO_ERROR
        var buffer = [CChar](repeating: 0, count: 192)
        let bytes = Array(locale.utf8CString)
        guard bytes.count < buffer.count else { return locale }
        buffer.replaceSubrange(0..<bytes.count, with: bytes)
        let length = swift_uloc_setKeywordValue(
            "numbers", system, &buffer, Int32(buffer.count), &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, length < buffer.count else {
            return locale
        }
        return String(decoding: buffer[..<Int(length)].map(UInt8.init), as: UTF8.self)
    }

    /// Makes the format's calendar Gregorian back to the year 1, as `EntryDate`'s is, when it
    /// is Gregorian at all (another calendar refuses, and keeps its own).
    private static func makeProleptic(_ format: UnsafeMutablePointer<UDateFormat?>) {
        var status = U_ZERO_ERROR
        guard let calendar = swift_ucal_clone(swift_udat_getCalendar(format), &status),
            status.rawValue <= U_ZERO_ERROR.rawValue
        else { return }
        defer { swift_ucal_close(calendar) }
        // The earliest moment ECMAScript's dates have: long before 0001-01-01.
        swift_ucal_setGregorianChange(calendar, -8.64e15, &status)
        if status.rawValue <= U_ZERO_ERROR.rawValue { swift_udat_setCalendar(format, calendar) }
    }
}
