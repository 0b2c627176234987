import CICU
import Synchronization

/// A language's plural rules, CLDR's as ICU has them: which category (`one`, `few`, …) a
/// count takes. French puts 0 and 1 in `one`, English 0 in `other`; Arabic uses all six.
final class PluralRules: Sendable {
    /// The BCP 47 language tag the rules are for.
    let language: String
    /// ICU's rules, used under the lock: ICU's C API promises no more for them.
    private let rules: Mutex<OpaquePointer?>

    /// Opens the rules of `language`; without them (ICU could not open any), every count is
    /// `other`.
    init(language: String) {
        self.language = language
        rules = Mutex(OpaquePointer(fs_plural_rules_open(language)))
    }

    deinit {
        rules.withLock { rules in
            if let rules { fs_plural_rules_close(UnsafeMutableRawPointer(rules)) }
        }
    }

    /// The category `count` takes.
    func category(of count: Int) -> PluralCategory {
        rules.withLock { rules -> PluralCategory in
            guard let rules else { return .other }
            var keyword = [CChar](repeating: 0, count: 16)
            let length = keyword.withUnsafeMutableBufferPointer { keyword in
                fs_plural_select(
                    UnsafeRawPointer(rules), Int64(count), keyword.baseAddress,
                    Int32(keyword.count))
            }
            guard length > 0 else { return .other }
            let name = String(decoding: keyword[..<Int(length)].map(UInt8.init), as: UTF8.self)
            return PluralCategory(rawValue: name) ?? .other
        }
    }
}
