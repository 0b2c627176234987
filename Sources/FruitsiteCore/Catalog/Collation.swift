import Foundation
import _FoundationICU

/// A language's alphabetical order, by CLDR's collation rules (ICU's): the order of the
/// catalog, its categories and facet values. Case is ignored and accents are not, so
/// "Alpine Cédrat" comes before "Alpine Cherry Nova" and "Açaí" before "Apple"; Swedish puts
/// "å" after "z", German does not; a language without rules of its own gets CLDR's root
/// order. Names equal in it are ordered by something else (slug, or name code point by code
/// point), so the order is total and the same on every machine with the same ICU.
public final class Collation: @unchecked Sendable {
    /// The BCP 47 language tag the order is for, as the config wrote it.
    public let language: String
    /// ICU's collator, and the buffers its calls fill: used under `lock` (a pthread mutex,
    /// which the thread sanitizer understands), as ICU promises no more than one thread at a
    /// time for a collator.
    private let collator: OpaquePointer?
    private var text: [UInt16] = []
    private var key: [UInt8] = Array(repeating: 0, count: 256)
    private let lock = NSLock()

    private init(language: String) {
        self.language = language
        collator = Self.collator(of: language)
    }

    deinit { if let collator { swift_ucol_close(collator) } }

    /// ICU's collator for `language` at secondary strength (letters and accents count, case
    /// and width do not); nil when ICU cannot open one.
    private static func collator(of language: String) -> OpaquePointer? {
        var status = U_ZERO_ERROR
        guard let locale = icuLocale(of: language),
            let collator = swift_ucol_open(locale, &status)
        else { return nil }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else {
            swift_ucol_close(collator)
            return nil
        }
        swift_ucol_setStrength(collator, UCOL_SECONDARY)
        return collator
    }

    /// The collation of `language`, made once per language in a process.
    public static func of(_ language: String) -> Collation {
        madeLock.withLock {
            if let collation = made[language] { return collation }
            let collation = Collation(language: language)
            made[language] = collation
            return collation
        }
    }

    /// CLDR's root order, for a catalog whose language is not known.
    public static var root: Collation { of("und") }

    /// The collations made so far, under `madeLock`.
    nonisolated(unsafe) private static var made: [String: Collation] = [:]
    private static let madeLock = NSLock()

    /// The sort key of `text`: comparing two keys byte by byte (`memcmp`) compares the
    /// texts in this order.
    public func key(_ text: String) -> [UInt8] {
        var key: [UInt8] = []
        appendKey(of: text, to: &key)
        return key
    }

    /// Appends the sort key of `text` to `bytes`: many keys in one array take a fraction of
    /// the memory of an array each. Without a collator (ICU could not open one), the key is
    /// the UTF-8 of `Fold.fold(text)`, code point order.
    public func appendKey(of text: String, to bytes: inout [UInt8]) {
        guard let collator else {
            bytes += Fold.key(text)
            return
        }
        lock.withLock {
            self.text.removeAll(keepingCapacity: true)
            self.text += text.utf16
            while true {
                let length = self.text.withUnsafeBufferPointer { text in
                    key.withUnsafeMutableBufferPointer { key in
                        Int(
                            swift_ucol_getSortKey(
                                collator, text.baseAddress, Int32(text.count), key.baseAddress,
                                Int32(key.count)))
                    }
                }
                if length <= key.count {
                    // The length counts the key's terminating zero, which memcmp need not see.
                    bytes += key[..<max(length - 1, 0)]
                    return
                }
                key = Array(repeating: 0, count: length)
            }
        }
    }
}
