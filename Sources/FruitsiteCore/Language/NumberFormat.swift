import Foundation
import _FoundationICU

/// How a language writes whole numbers, as ICU's decimal format does: 1234 is "1,234" in
/// English and "1 234" in French (a narrow no-break space).
final class NumberFormat: @unchecked Sendable {
    /// ICU's format, used under `lock` (which the thread sanitizer understands): ICU's C API
    /// promises no more for it.
    private let format: UnsafeMutablePointer<UNumberFormat?>?
    private let lock = NSLock()
    /// The digits it writes, as CLDR names them (`latn`, `arab`): what the browser is told to
    /// write, since its own CLDR may write the language's numbers with other digits (Arabic's
    /// were `arab` before CLDR 42, `latn` since).
    let numberingSystem: String

    /// Opens the format of `language`; without it (ICU could not open one), numbers are
    /// written with ASCII digits and no grouping.
    init(language: String) {
        let locale = icuLocale(of: language)
        var status = U_ZERO_ERROR
        let format = locale.flatMap { swift_unum_open(UNUM_DECIMAL, nil, 0, $0, nil, &status) }
        self.format = status.rawValue <= U_ZERO_ERROR.rawValue ? format : nil
        status = U_ZERO_ERROR
        let system = locale.flatMap { swift_unumsys_open($0, &status) }
        defer { if let system { swift_unumsys_close(system) } }
        numberingSystem =
            status.rawValue <= U_ZERO_ERROR.rawValue
            ? system.flatMap { swift_unumsys_getName($0) }.map { String(cString: $0) } ?? "latn"
            : "latn"
    }

    deinit { if let format { swift_unum_close(format) } }

    /// `number` as the language writes it.
    func string(_ number: Int) -> String {
        guard let format else { return String(number) }
        return lock.withLock { () -> String in
            var status = U_ZERO_ERROR
            var text = [UChar](repeating: 0, count: 64)
            let length = swift_unum_formatInt64(
                format, Int64(number), &text, Int32(text.count), nil, &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0, length <= text.count
            else { return String(number) }
            return String(decoding: text[..<Int(length)], as: UTF16.self)
        }
    }
}
