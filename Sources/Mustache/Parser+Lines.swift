/// Grouping tokens into lines, finding the standalone ones and dedenting blocks: what the
/// spec's whitespace rules need before the tree is built.
extension Parser {
    // MARK: Lines

    mutating func groupLines() {
        lineOfToken = Array(repeating: 0, count: tokens.count)
        var first = 0
        for index in tokens.indices {
            lineOfToken[index] = lines.count
            let token = tokens[index]
            if token.kind == .text, source.bytes[token.range.upperBound - 1] == .newline {
                lines.append(makeLine(first: first, last: index))
                first = index + 1
            }
        }
        if first < tokens.count {
            lines.append(makeLine(first: first, last: tokens.count - 1))
        }
    }

    func makeLine(first: Int, last: Int) -> Line {
        var whitespace: [UInt8] = []
        if tokens[first].kind == .text {
            whitespace = Array(
                source.bytes[tokens[first].range].prefix(while: \.isInlineWhitespace))
        }
        return Line(first: first, last: last, leadingWhitespace: whitespace)
    }

    /// Whether a text token holds only spaces and tabs, apart from a final line break.
    func isWhitespace(_ token: Token) -> Bool {
        source.bytes[token.range.lowerBound..<contentEnd(of: token)].allSatisfy(
            \.isInlineWhitespace)
    }

    /// Where a text token's line break (`\n` or `\r\n`) starts, or its end if it has none.
    func contentEnd(of token: Token) -> Int {
        var end = token.range.upperBound
        if end > token.range.lowerBound, source.bytes[end - 1] == .newline {
            end -= 1
            if end > token.range.lowerBound, source.bytes[end - 1] == .carriageReturn {
                end -= 1
            }
        }
        return end
    }

    /// Whether a line is left in the output and has more than its line break, so that a
    /// standalone partial's indentation goes before it.
    func isIndentable(_ line: Line) -> Bool {
        guard !line.isStandalone else { return false }
        let first = tokens[line.first]
        return first.kind != .text || first.isRemoved
            || contentEnd(of: first) > first.range.lowerBound
    }

    func isBlank(_ line: Line) -> Bool {
        (line.first...line.last).allSatisfy { tokens[$0].kind == .text && isWhitespace(tokens[$0]) }
    }

    // MARK: - Standalone lines

    /// Removes the whitespace and line break around a tag that stands alone on its line.
    ///
    /// A standalone line holds one tag, as the spec defines it: `{{#a}}{{/a}}` alone on a
    /// line is not standalone and leaves its line break. The one exception is a run of
    /// adjacent parent and block tags (`{{<parent}}{{$block}}`, `{{/block}}{{/parent}}`),
    /// which the inheritance spec's tests require to be standalone together.
    mutating func markStandaloneLines() {
        let openingKinds = openingKindOfClosingTags()
        for lineIndex in lines.indices {
            let line = lines[lineIndex]
            var tagIndices: [Int] = []
            var isCandidate = true
            for index in line.first...line.last {
                let token = tokens[index]
                if token.kind == .text {
                    isCandidate = isWhitespace(token)
                } else if token.kind.canBeStandalone {
                    tagIndices.append(index)
                } else {
                    isCandidate = false
                }
                if !isCandidate { break }
            }
            guard isCandidate, let firstTag = tagIndices.first, let lastTag = tagIndices.last else {
                continue
            }
            if tagIndices.count > 1 {
                let isAdjacent = lastTag - firstTag + 1 == tagIndices.count
                let isInheritanceRun = tagIndices.allSatisfy { index in
                    let kind =
                        tokens[index].kind == .closing ? openingKinds[index] : tokens[index].kind
                    return kind == .parent || kind == .block
                }
                guard isAdjacent, isInheritanceRun else { continue }
            }
            lines[lineIndex].isStandalone = true
            for index in tagIndices {
                tokens[index].isStandalone = true
            }
            if firstTag > line.first {
                tokens[line.first].isRemoved = true
            }
            if lastTag < line.last {
                let trailing = tokens[line.last]
                let lineBreak = contentEnd(of: trailing)..<trailing.range.upperBound
                if opensAndClosesBlock(tagIndices), !lineBreak.isEmpty {
                    // The spec keeps the line break after a block opened and closed on one
                    // line (`  {{$block}}{{/block}}`), so an override without a final line
                    // break still ends its line.
                    tokens[line.last].range = lineBreak
                } else {
                    tokens[line.last].isRemoved = true
                }
            }
        }
    }

    /// The kind of tag each closing tag closes, keyed by the closing tag's index, matching
    /// them as `buildTree` does.
    func openingKindOfClosingTags() -> [Int: Token.Kind] {
        pairSections().reduce(into: [:]) { kinds, pair in
            kinds[pair.value] = tokens[pair.key].kind
        }
    }

    func opensAndClosesBlock(_ tagIndices: [Int]) -> Bool {
        tagIndices.enumerated().contains { position, index in
            tokens[index].kind == .block
                && tagIndices[(position + 1)...].contains {
                    tokens[$0].kind == .closing && tokens[$0].content == tokens[index].content
                }
        }
    }

    // MARK: - Block indentation

    /// Removes the common indentation of each standalone block's content, and records the
    /// indentation the content takes where the block is expanded.
    ///
    /// The inheritance spec defines this on text: indentation is removed at the site of
    /// definition and added at the site of expansion, where it is the indentation of the
    /// block's default content (or of its tag when the default is empty). Lines of a nested
    /// block lose the nested block's own indentation, which includes the outer one.
    mutating func dedentBlocks() {
        let closingIndices = pairSections()
        var lineDedent: [[UInt8]] = Array(repeating: [], count: lines.count)
        for openIndex in closingIndices.keys.sorted()
        where tokens[openIndex].kind == .block && tokens[openIndex].isStandalone {
            guard let closeIndex = closingIndices[openIndex] else { continue }
            let openLine = lineOfToken[openIndex]
            var contentLines: [Int] = []
            var common: [UInt8]?
            var lineIndex = openLine + 1
            while lineIndex < lines.count, lines[lineIndex].first < closeIndex {
                let line = lines[lineIndex]
                lineIndex += 1
                if line.last >= closeIndex, tokens[closeIndex].isStandalone { continue }
                contentLines.append(lineIndex - 1)
                if !isBlank(line) {
                    common =
                        common.map { commonPrefix($0, line.leadingWhitespace) }
                        ?? line.leadingWhitespace
                }
            }
            let expansion = common ?? lines[openLine].leadingWhitespace
            let outer = lineDedent[openLine]
            blockIndentation[openIndex] = Array(
                expansion.dropFirst(commonPrefix(expansion, outer).count))
            if let common {
                for contentLine in contentLines {
                    lineDedent[contentLine] = common
                }
            }
        }
        for lineIndex in lines.indices where !lineDedent[lineIndex].isEmpty {
            let line = lines[lineIndex]
            let stripped = commonPrefix(line.leadingWhitespace, lineDedent[lineIndex]).count
            guard stripped > 0 else { continue }
            lines[lineIndex].leadingWhitespace.removeFirst(stripped)
            if tokens[line.first].kind == .text {
                let range = tokens[line.first].range
                tokens[line.first].range = (range.lowerBound + stripped)..<range.upperBound
                if tokens[line.first].range.isEmpty {
                    tokens[line.first].isRemoved = true
                }
            }
        }
    }

    /// Maps each section's, parent's and block's opening tag to its closing tag, matching them
    /// as `buildTree` does.
    func pairSections() -> [Int: Int] {
        var open: [Int] = []
        var closingIndices: [Int: Int] = [:]
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind.opensSection {
                open.append(index)
            } else if token.kind == .closing,
                let depth = open.lastIndex(where: { tokens[$0].content == token.content })
                    ?? open.indices.last
            {
                closingIndices[open[depth]] = index
                open.removeSubrange(depth...)
            }
        }
        return closingIndices
    }

    func commonPrefix(_ first: [UInt8], _ second: [UInt8]) -> [UInt8] {
        Array(zip(first, second).prefix(while: { $0 == $1 }).map(\.0))
    }

}
