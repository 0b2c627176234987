#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Renders a compiled template's program into one output buffer of UTF-8; one renderer serves
/// one `render` call.
///
/// The context is a stack of values pushed and popped around sections; nothing is copied
/// but the references Swift's copy-on-write collections share.
struct Renderer: ~Copyable {
    /// How deep partials, parents and block overrides may nest before rendering stops with
    /// an error instead of overflowing the stack.
    static let maximumDepth = 200
    /// How deep `render` may recurse, through sections and blocks as well as inclusions,
    /// before a further inclusion stops with an error. One template nests at most
    /// `Parser.maximumNesting` levels, but partials 200 deep, each holding 100 nested
    /// sections, would still overflow the stack.
    static let maximumRenderDepth = 1_000

    private let templates: [String: CompiledTemplate]
    private let requiresKnownPartials: Bool
    /// The most bytes the output may reach: loops over loops can otherwise grow it until
    /// memory runs out.
    private let sizeLimit: Int
    /// The template `render` was asked for, named by errors raised outside any partial.
    private let rootTemplate: String
    /// Bytes rather than a `String`: appending bytes is a copy, where appending to a string
    /// also checks and updates its UTF-8 flags, and pages are written as bytes anyway.
    private var output: OutputBuffer
    private var stack: [Context]
    /// Prepended to each line of a standalone partial, parent or block, at the line starts
    /// the parser marked: lines of the template's source, never lines the data produces.
    private var indentation: [UInt8] = []
    /// The last indentation an inclusion made, kept so that a partial included for every item
    /// of a list joins its indentation to the current one once, not once for each item.
    private var joinedIndentation: (base: [UInt8], extra: [UInt8], joined: [UInt8])?
    /// The block overrides in force; outer templates win over the parents they name.
    private var overrides: [String: Override] = [:]
    /// The partials, parents and blocks being expanded, innermost last.
    private var chain: [String] = []
    /// How many `render` calls are in progress: sections, blocks and inclusions.
    private var renderDepth = 0

    init(
        templates: [String: CompiledTemplate], requiresKnownPartials: Bool,
        context: MustacheValue, capacity: Int, rootTemplate: String = "",
        sizeLimit: Int = .max
    ) {
        self.rootTemplate = rootTemplate
        self.templates = templates
        self.requiresKnownPartials = requiresKnownPartials
        self.sizeLimit = sizeLimit
        stack = [Context(context)]
        output = OutputBuffer(capacity: capacity)
    }

    // MARK: - Nodes

    mutating func render(_ template: CompiledTemplate) throws(MustacheError) {
        try render(template.program.whole, of: template.program)
    }

    /// The bytes rendered.
    consuming func finish() -> [UInt8] {
        output.bytes()
    }

    /// Renders the instructions in `range` of `program`, read by index: they hold no
    /// references, so walking them retains nothing.
    private mutating func render(_ range: Range<Int>, of program: Program) throws(MustacheError) {
        renderDepth += 1
        defer { renderDepth -= 1 }
        var index = range.lowerBound
        while index < range.upperBound {
            let instruction = program.instructions[index]
            index += 1
            switch instruction {
            case .text(let start, let count, let startsLine):
                program.textBytes.withUnsafeBufferPointer { bytes in
                    let text = UnsafeBufferPointer(
                        rebasing: bytes[Int(start)..<Int(start) + Int(count)])
                    if indentation.isEmpty {
                        output.append(text)
                    } else {
                        appendIndented(text, startsLine: startsLine)
                    }
                }
            case .lineStart:
                output.append(indentation)
            case .variable(let name, let isEscaped):
                if let value = lookUp(name, in: program) {
                    append(value, isEscaped: isEscaped)
                }
            case .section(let name, let end, let isInverted):
                try renderSection(
                    lookUp(name, in: program), content: index..<Int(end), of: program,
                    isInverted: isInverted)
                index = Int(end)
            case .partial(let inclusion):
                try include(program.inclusions[Int(inclusion)], arguments: nil, of: program)
            case .parent(let inclusion, let arguments, let end):
                try include(
                    program.inclusions[Int(inclusion)],
                    arguments: program.arguments[Int(arguments)],
                    of: program)
                index = Int(end)
            case .block(let block, let end):
                try renderBlock(program.blocks[Int(block)], content: index..<Int(end), of: program)
                index = Int(end)
            }
            if output.count > sizeLimit {
                throw MustacheError(
                    .outputTooLarge(limit: sizeLimit), template: chain.last ?? rootTemplate,
                    line: 0, column: 0)
            }
        }
    }

    private mutating func renderSection(
        _ value: MustacheValue?, content: Range<Int>, of program: Program, isInverted: Bool
    ) throws(MustacheError) {
        let isTruthy = value?.isTruthy ?? false
        if isInverted {
            if !isTruthy {
                try render(content, of: program)
            }
            return
        }
        guard isTruthy, let value else { return }
        if case .array(let items) = value {
            for item in items {
                stack.append(Context(item))
                try render(content, of: program)
                stack.removeLast()
            }
        } else {
            stack.append(Context(value))
            try render(content, of: program)
            stack.removeLast()
        }
    }

    /// A block's content from a template that includes a parent, and the indentation of that
    /// template's lines where it includes the parent.
    private struct Override {
        var content: Range<Int>
        var program: Program
        var indentation: [UInt8]
    }

    private mutating func renderBlock(
        _ block: Program.Block, content: Range<Int>, of program: Program
    ) throws(MustacheError) {
        guard let override = overrides.isEmpty ? nil : overrides[block.name] else {
            try render(content, of: program, indentation: indented(by: block.indentation ?? []))
            return
        }
        // An override may itself hold the block it overrides, so it counts toward the depth.
        try enter("$" + block.name, at: block.location)
        if let extra = block.indentation {
            // A standalone block's override is reindented where the block stands, as the
            // inheritance spec says.
            try render(override.content, of: override.program, indentation: indented(by: extra))
        } else {
            // Otherwise its lines are those of the template that wrote them, indented as that
            // template is.
            try render(
                override.content, of: override.program, indentation: override.indentation)
        }
        chain.removeLast()
    }

    /// Renders instructions with another indentation in force, then restores the current one.
    private mutating func render(
        _ range: Range<Int>, of program: Program, indentation rangeIndentation: [UInt8]
    ) throws(MustacheError) {
        guard rangeIndentation != indentation else {
            try render(range, of: program)
            return
        }
        let saved = indentation
        indentation = rangeIndentation
        try render(range, of: program)
        indentation = saved
    }

    // MARK: - Partials and parents

    private mutating func include(
        _ inclusion: Node.Inclusion, arguments: [String: Range<Int>]?, of program: Program
    ) throws(MustacheError) {
        let name: String
        switch inclusion.name {
        case .fixed(let fixed):
            name = fixed
        case .dynamic(let path):
            // The name is what the tag would write (`123` for a number); one that resolves to
            // nothing renders nothing, like a missing variable.
            guard let resolved = lookUp(path.parts)?.interpolated else { return }
            name = resolved
        }
        guard let template = templates[name] else {
            if requiresKnownPartials {
                let position = inclusion.location.position
                throw MustacheError(
                    arguments == nil ? .unknownPartial(name) : .unknownParent(name),
                    template: inclusion.location.template, line: position.line,
                    column: position.column)
            }
            return
        }
        try enter(name, at: inclusion.location)
        let savedOverrides = overrides
        if let arguments, !arguments.isEmpty {
            let including = indentation
            overrides = arguments.mapValues {
                Override(content: $0, program: program, indentation: including)
            }
            .merging(overrides) { _, outer in outer }
        }
        // A standalone tag's indentation adds to the current one, as the tag's line was itself
        // indented; the template of an inline tag is not indented at all, since indentation
        // belongs to the lines of the including template only.
        let templateIndentation = inclusion.indentation.map { indented(by: $0) } ?? []
        try render(
            template.program.whole, of: template.program, indentation: templateIndentation)
        overrides = savedOverrides
        chain.removeLast()
    }

    /// Records one more level of nesting, or throws when the bound is reached.
    private mutating func enter(_ name: String, at location: Node.Location) throws(MustacheError) {
        guard chain.count < Self.maximumDepth, renderDepth < Self.maximumRenderDepth else {
            throw MustacheError(
                .recursionTooDeep(repeatingChain(ending: name)), template: location.template,
                line: location.position.line, column: location.position.column)
        }
        chain.append(name)
    }

    /// The last cycle of the chain (`a > b > a`), which is what the reader needs to fix.
    private func repeatingChain(ending name: String) -> [String] {
        guard let start = chain.lastIndex(of: name) else {
            return Array(chain.suffix(10)) + [name]
        }
        return Array(chain[start...].suffix(10)) + [name]
    }

    // MARK: - Context

    /// The value of the program's name `name`, which is read where it lies rather than
    /// copied out of the program, once for each tag of each page.
    private func lookUp(_ name: Int32, in program: Program) -> MustacheValue? {
        program.names.withUnsafeBufferPointer { lookUp($0[Int(name)]) }
    }

    private func lookUp(_ parts: [String]) -> MustacheValue? {
        guard !parts.isEmpty else { return stack.last?.value }
        // Through a buffer pointer, each context's fields read where they lie: an array's
        // subscript and its iterator copy the element, and each copy of a hash retains and
        // releases its storage.
        var found = stack.withUnsafeBufferPointer { contexts -> MustacheValue? in
            guard let base = contexts.baseAddress else { return nil }
            var index = contexts.count - 1
            while index >= 0 {
                let context = base + index
                if let position = MustacheObject.position(
                    of: parts[0], keys: context.pointee.keys, index: context.pointee.index)
                {
                    return context.pointee.values[position]
                }
                index -= 1
            }
            return nil
        }
        // Later parts resolve only inside the first part's value, never up the stack.
        var part = 1
        while part < parts.count, let value = found {
            found = value.field(parts[part])
            part += 1
        }
        return found
    }

    /// A value of the context stack, a hash's parts held apart: reading a payload out of an
    /// enum, or a hash out of a struct, that lies in memory copies it first, which for a hash
    /// is a retain and a release of each of its arrays, on every lookup that finds a name.
    private struct Context {
        /// The hash's keys, values and index (`MustacheObject`); none when the value is not
        /// a hash.
        let keys: [String]
        let values: [MustacheValue]
        let index: [String: Int]?
        /// The value when it is not a hash.
        private let other: MustacheValue?

        init(_ value: consuming MustacheValue) {
            switch consume value {
            case .object(let fields):
                (keys, values, index, other) = (fields.keys, fields.values, fields.index, nil)
            case let other:
                (keys, values, index, self.other) = ([], [], nil, other)
            }
        }

        /// The value itself, which `{{.}}` names.
        var value: MustacheValue {
            other ?? .object(MustacheObject(uniqueKeys: keys, values: values))
        }
    }

    // MARK: - Output

    /// The current indentation followed by `extra`.
    private mutating func indented(by extra: [UInt8]) -> [UInt8] {
        guard !extra.isEmpty else { return indentation }
        if let joined = joinedIndentation, joined.base == indentation, joined.extra == extra {
            return joined.joined
        }
        let joined = indentation + extra
        joinedIndentation = (indentation, extra, joined)
        return joined
    }

    /// Appends text, indenting each line that starts in it.
    ///
    /// Each line break inside a run of text ends a template line and starts the next; an
    /// empty next line stays unindented, so that it gains no trailing whitespace.
    private mutating func appendIndented(_ bytes: UnsafeBufferPointer<UInt8>, startsLine: Bool) {
        if startsLine {
            output.append(indentation)
        }
        guard let base = bytes.baseAddress else { return }
        // Line breaks found with memchr rather than a check of every byte: the default theme
        // includes its fruit card with indentation once for every listed fruit.
        var runStart = 0
        var offset = 0
        while let found = memchr(base + offset, Int32(UInt8.newline), bytes.count - offset) {
            let lineStart = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
            offset = lineStart
            guard lineStart < bytes.count else { break }
            let next = bytes[lineStart]
            let isEmptyLine =
                next == .newline
                || (next == .carriageReturn && lineStart + 1 < bytes.count
                    && bytes[lineStart + 1] == .newline)
            guard !isEmptyLine else { continue }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<lineStart]))
            output.append(indentation)
            runStart = lineStart
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    private mutating func append(_ value: MustacheValue, isEscaped: Bool) {
        if case .utf8(let bytes) = value {
            bytes.withUnsafeBufferPointer { append($0, isEscaped: isEscaped) }
            return
        }
        guard var text = value.interpolated else { return }
        text.withUTF8 { append($0, isEscaped: isEscaped) }
    }

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, isEscaped: Bool) {
        if isEscaped {
            output.appendEscaped(bytes)
        } else {
            output.append(bytes)
        }
    }
}
