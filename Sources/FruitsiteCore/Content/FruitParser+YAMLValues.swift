import Mustache

extension FruitParser {
    /// Converts YAML to template data with YAML 1.2's core schema: plain `true`, `false`,
    /// `null`, integers and floats become typed values; anything quoted stays a string.
    static func mustacheValue(_ node: YAMLNode) -> MustacheValue {
        switch node.kind {
        case .scalar(let text, let isPlain):
            guard isPlain else { return .string(Fold.normalizeNFC(text)) }
            if node.isNull { return .null }
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            return number(text) ?? .string(Fold.normalizeNFC(text))
        case .sequence(let items):
            return .array(items.map(mustacheValue))
        case .mapping(let pairs):
            var object = MustacheObject()
            for (key, value) in pairs {
                object[Fold.normalizeNFC(key.scalarText ?? "")] = mustacheValue(value)
            }
            return .object(object)
        }
    }

    /// The number a plain scalar is in YAML 1.2's core schema, or nil: a decimal, `0o` octal
    /// or `0x` hex integer, or a decimal float (`-1.5e3`, `.5`). An integer too large for 64
    /// bits stays as written rather than losing digits. Read by hand: a `Regex` literal was
    /// parsed again at each use, a third of a clean build's time.
    static func number(_ text: String) -> MustacheValue? {
        let bytes = Array(text.utf8)
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        func allDigits(_ part: ArraySlice<UInt8>, _ accepts: (UInt8) -> Bool) -> Bool {
            !part.isEmpty && part.allSatisfy(accepts)
        }
        let radixes: [(prefix: String, radix: Int, accepts: (UInt8) -> Bool)] = [
            ("0o", 8, { (0x30...0x37).contains($0) }),
            ("0x", 16, { isDigit($0) || (0x41...0x46).contains($0 & 0xDF) }),
        ]
        for (prefix, radix, accepts) in radixes where bytes.starts(with: prefix.utf8) {
            let digits = bytes.dropFirst(2)
            guard allDigits(digits, accepts) else { return nil }
            return Int(String(decoding: digits, as: UTF8.self), radix: radix).map(
                MustacheValue.int) ?? .string(text)
        }
        var rest = bytes[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            rest = rest.dropFirst()
        }
        if allDigits(rest, isDigit) { return Int(text).map(MustacheValue.int) ?? .string(text) }
        // A float: digits with a point (digits on at least one side), then maybe an exponent.
        let exponent = rest.firstIndex { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        let mantissa = rest[..<(exponent ?? rest.endIndex)]
        let parts = mantissa.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(isDigit) }),
            parts.contains(where: { !$0.isEmpty })
        else { return nil }
        if let exponent {
            var power = rest[(exponent + 1)...]
            if let sign = power.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                power = power.dropFirst()
            }
            guard allDigits(power, isDigit) else { return nil }
        }
        return Double(text).flatMap { $0.isFinite ? .double($0) : nil }
    }
}
