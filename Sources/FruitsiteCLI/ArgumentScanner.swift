import FruitsiteCore

/// A usage mistake on the command line; printed with the command's usage line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Reads one command's arguments: `--name value`, `--name=value`, flags, positionals and `--`.
struct ArgumentScanner {
    /// The options a command accepts.
    struct Spec {
        var valueOptions: [String] = []
        var flags: [String] = []
        /// Value options whose value may be empty (none else: an empty path or host is a
        /// wrong command line, not a folder that cannot be read).
        var emptyValues: [String] = []
    }

    /// Each value option's last value: a later one overrides.
    private(set) var values: [String: String] = [:]
    /// Each value option's every value, in order, for options that may be repeated.
    private(set) var allValues: [String: [String]] = [:]
    private(set) var flags: Set<String> = []
    private(set) var positionals: [String] = []

    /// Scans `arguments`; everything after `--` is positional, so text may start with a dash.
    /// - Throws: `UsageError` for an unknown option or a missing value, with a suggestion.
    init(_ arguments: [String], spec: Spec) throws(UsageError) {
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            // The first `=` as a code point: a value may start with a combining mark, which
            // makes one character of `=` and itself.
            if let equals = argument.unicodeScalars.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(
                    argument.unicodeScalars[argument.unicodeScalars.index(after: equals)...])
            }
            if name == "-h" { name = "--help" }
            if spec.flags.contains(name) || name == "--help" {
                guard inlineValue == nil else {
                    throw UsageError(message: "option '\(name)' takes no value")
                }
                flags.insert(name)
            } else if spec.valueOptions.contains(name) {
                // A value after a space never starts with a dash: `--output --quiet` is an
                // option without its value, not a folder named `--quiet`.
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count,
                    !arguments[index].hasPrefix("-") || arguments[index] == "-"
                {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw UsageError(
                        message: "option '\(name)' needs a value"
                            + (index < arguments.count
                                ? " (one that starts with a dash is written \(name)=VALUE)" : ""))
                }
                if values[name]!.isEmpty, !spec.emptyValues.contains(name) {
                    throw UsageError(message: "option '\(name)' needs a value, not an empty one")
                }
                allValues[name, default: []].append(values[name]!)
            } else {
                let known = spec.valueOptions + spec.flags + ["--help"]
                var message = "unknown option '\(name)'"
                if let suggestion = Suggestion.closest(to: name, in: known, maximumDistance: 2) {
                    message += "; did you mean '\(suggestion)'?"
                }
                throw UsageError(message: message)
            }
        }
    }

    func has(_ flag: String) -> Bool { flags.contains(flag) }
}
