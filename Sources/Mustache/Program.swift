/// A template's nodes lowered to one flat array of instructions that hold no references, for
/// `Renderer`: walking a page's tags reads plain integers by index, where walking `Node`s
/// retained and released each node's box and the arrays and strings inside it.
///
/// Text in one byte array; names, inclusions and blocks in side tables; a section's or a
/// block's content is the run of instructions that follows it, up to its `end`.
struct Program: Sendable {
    enum Instruction: Sendable {
        /// `textBytes[start..<start + count]`, and whether it starts a line of the template.
        case text(start: Int32, count: Int32, startsLine: Bool)
        case lineStart
        case variable(name: Int32, isEscaped: Bool)
        /// The content is the instructions after this one, up to `end`.
        case section(name: Int32, end: Int32, isInverted: Bool)
        case partial(inclusion: Int32)
        /// The blocks it overrides are `arguments[arguments]`, whose content follows it, up
        /// to `end`.
        case parent(inclusion: Int32, arguments: Int32, end: Int32)
        /// The default content is the instructions after this one, up to `end`.
        case block(Int32, end: Int32)
    }

    /// A block tag, without its content.
    struct Block: Sendable {
        var name: String
        var indentation: [UInt8]?
        var location: Node.Location
    }

    private(set) var instructions: [Instruction] = []
    /// Every text of the template, one after the other.
    private(set) var textBytes: [UInt8] = []
    private(set) var names: [[String]] = []
    private(set) var inclusions: [Node.Inclusion] = []
    /// Each parent tag's overrides: a block name's content, as a range of instructions.
    private(set) var arguments: [[String: Range<Int>]] = []
    private(set) var blocks: [Block] = []

    /// All of the template's instructions.
    var whole: Range<Int> { 0..<instructions.count }

    init(_ nodes: [Node]) {
        append(nodes)
    }

    private mutating func append(_ nodes: [Node]) {
        for node in nodes {
            switch node {
            case .text(let text, let startsLine):
                instructions.append(
                    .text(
                        start: Int32(textBytes.count), count: Int32(text.count),
                        startsLine: startsLine))
                textBytes += text
            case .lineStart:
                instructions.append(.lineStart)
            case .variable(let name, let isEscaped):
                instructions.append(.variable(name: add(name), isEscaped: isEscaped))
            case .section(let name, let content, let isInverted):
                let index = instructions.count
                let nameIndex = add(name)
                instructions.append(.section(name: nameIndex, end: 0, isInverted: isInverted))
                append(content)
                instructions[index] = .section(
                    name: nameIndex, end: Int32(instructions.count), isInverted: isInverted)
            case .partial(let inclusion):
                inclusions.append(inclusion)
                instructions.append(.partial(inclusion: Int32(inclusions.count - 1)))
            case .parent(let inclusion, let blockArguments):
                inclusions.append(inclusion)
                let (index, inclusionIndex) = (instructions.count, Int32(inclusions.count - 1))
                // Its slot taken first: parents inside the overrides add theirs after.
                let argumentsIndex = Int32(arguments.count)
                arguments.append([:])
                instructions.append(
                    .parent(inclusion: inclusionIndex, arguments: argumentsIndex, end: 0))
                // The overrides' content follows the parent tag, which skips it.
                var ranges: [String: Range<Int>] = [:]
                for (name, content) in blockArguments.sorted(by: { $0.key < $1.key }) {
                    let start = instructions.count
                    append(content)
                    ranges[name] = start..<instructions.count
                }
                arguments[Int(argumentsIndex)] = ranges
                instructions[index] = .parent(
                    inclusion: inclusionIndex, arguments: argumentsIndex,
                    end: Int32(instructions.count))
            case .block(let block):
                blocks.append(
                    Block(
                        name: block.name, indentation: block.indentation,
                        location: block.location))
                let index = instructions.count
                let blockIndex = Int32(blocks.count - 1)
                instructions.append(.block(blockIndex, end: 0))
                append(block.content)
                instructions[index] = .block(blockIndex, end: Int32(instructions.count))
            }
        }
    }

    private mutating func add(_ name: Node.Name) -> Int32 {
        names.append(name.parts)
        return Int32(names.count - 1)
    }
}
