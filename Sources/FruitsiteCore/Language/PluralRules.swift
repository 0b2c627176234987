import Foundation
import _FoundationICU

/// A language's plural rules, CLDR's as ICU has them: which category (`one`, `few`, …) a
/// count takes. French puts 0 and 1 in `one`, English 0 in `other`; Arabic uses all six.
final class PluralRules: @unchecked Sendable {
    /// The BCP 47 language tag the rules are for.
    let language: String
    /// ICU's rules, used under `lock` (which the thread sanitizer understands): ICU's C API
    /// promises no more for them.
    private let rules: OpaquePointer?
    private let lock = NSLock()

    /// Opens the rules of `language`; without them (ICU could not open any), every count is
    /// `other`.
    init(language: String) {
        self.language = language
        var status = U_ZERO_ERROR
        let rules = icuLocale(of: language).flatMap { swift_uplrules_open($0, &status) }
        self.rules = status.rawValue <= U_ZERO_ERROR.rawValue ? rules : nil
    }

    deinit { if let rules { swift_uplrules_close(rules) } }

    /// The category `count` takes.
    func category(of count: Int) -> PluralCategory {
        guard let rules else { return .other }
        return lock.withLock { () -> PluralCategory in
            var status = U_ZERO_ERROR
            var keyword = [UChar](repeating: 0, count: 16)
            // The count as a double: exact for every count below 2^53.
            let length = swift_uplrules_select(
                rules, Double(count), &keyword, Int32(keyword.count), &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else { return .other }
            return PluralCategory(
                rawValue: String(decoding: keyword[..<Int(length)], as: UTF16.self)) ?? .other
        }
    }
}
