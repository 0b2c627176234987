import CICU
import Synchronization

/// How a language writes whole numbers, as ICU's decimal format does: 1234 is "1,234" in
/// English and "1 234" in French (a narrow no-break space).
final class NumberFormat: Sendable {
    /// ICU's format, used under the lock: ICU's C API promises no more for it.
    private let format: Mutex<OpaquePointer?>

    /// Opens the format of `language`; without it (ICU could not open one), numbers are
    /// written with ASCII digits and no grouping.
    init(language: String) {
        format = Mutex(OpaquePointer(fs_number_format_open(language)))
    }

    deinit {
        format.withLock { format in
            if let format { fs_number_format_close(UnsafeMutableRawPointer(format)) }
        }
    }

    /// `number` as the language writes it.
    func string(_ number: Int) -> String {
        format.withLock { format -> String in
            guard let format else { return String(number) }
            var text = [UInt16](repeating: 0, count: 64)
            let length = text.withUnsafeMutableBufferPointer { text in
                fs_number_format(
                    UnsafeRawPointer(format), Int64(number), text.baseAddress, Int32(text.count))
            }
            guard length >= 0 else { return String(number) }
            return String(decoding: text[..<Int(length)], as: UTF16.self)
        }
    }
}
