import CICU
import Synchronization

/// A language's alphabetical order, by CLDR's collation rules (ICU's): the order of the
/// catalog, its categories and facet values. Case is ignored and accents are not, so
/// "Alpine Cédrat" comes before "Alpine Cherry Nova" and "Açaí" before "Apple"; Swedish puts
/// "å" after "z", German does not; a language without rules of its own gets CLDR's root
/// order. Names equal in it are ordered by something else (slug, or name code point by code
/// point), so the order is total and the same on every machine with the same ICU.
public final class Collation: Sendable {
    /// The BCP 47 language tag the order is for, as the config wrote it.
    public let language: String
    /// ICU's collator: its sort keys are made under the lock, as ICU promises no more than
    /// one thread at a time for a collator.
    private let collator: Mutex<OpaquePointer?>

    private init(language: String) {
        self.language = language
        collator = Mutex(OpaquePointer(fs_collator_open(language)))
    }

    deinit {
        collator.withLock {
            if let collator = $0 { fs_collator_close(UnsafeMutableRawPointer(collator)) }
        }
    }

    /// The collation of `language`, made once per language in a process.
    public static func of(_ language: String) -> Collation {
        made.withLock { made in
            if let collation = made[language] { return collation }
            let collation = Collation(language: language)
            made[language] = collation
            return collation
        }
    }

    /// CLDR's root order, for a catalog whose language is not known.
    public static var root: Collation { of("und") }

    private static let made = Mutex<[String: Collation]>([:])

    /// The sort key of `text`: comparing two keys byte by byte (`memcmp`) compares the
    /// texts in this order. Without a collator (ICU could not open one), the UTF-8 of
    /// `Fold.fold(text)`, code point order.
    public func key(_ text: String) -> [UInt8] {
        let utf16 = Array(text.utf16)
        return collator.withLock { collator -> [UInt8] in
            guard let collator else { return Fold.key(text) }
            return utf16.withUnsafeBufferPointer { text in
                var key = [UInt8](repeating: 0, count: 4 * text.count + 16)
                while true {
                    let length = key.withUnsafeMutableBufferPointer { key in
                        Int(
                            fs_collator_sort_key(
                                UnsafeRawPointer(collator), text.baseAddress, Int32(text.count),
                                key.baseAddress, Int32(key.count)))
                    }
                    // The length counts the key's terminating zero, which memcmp need not see.
                    if length <= key.count {
                        key.removeLast(key.count - max(length - 1, 0))
                        return key
                    }
                    key = [UInt8](repeating: 0, count: length)
                }
            }
        }
    }
}
