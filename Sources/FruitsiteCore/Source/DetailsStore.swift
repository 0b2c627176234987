import Foundation
import Mustache

/// Keeps the details of the entries a scan parses until their pages are rendered.
///
/// A first build parses every entry before it renders a page, and a million bodies held from
/// the parse to the pages would take gigabytes. So a scan keeps details in memory up to a
/// budget, and writes the rest to a scratch file, which is unlinked as soon as it is made
/// (nothing is left behind, however the build ends) and read back page by page.
final class DetailsStore: @unchecked Sendable {
    /// The body bytes kept in memory before details go to the scratch file: every body of a
    /// site of 10,000 typical entries (13 MB of Markdown), and no more: past that, memory
    /// is to stay flat.
    static let defaultBudget = 16 << 20

    private struct State {
        var budgetLeft: Int
        /// The scratch file, made when the budget is first spent; -1 before, or when it
        /// could not be made.
        var descriptor: Int32 = -1
        /// Why the scratch file could not be made, once that was tried.
        var unavailable: String?
        var end = 0
        /// Why the scratch file first failed to keep or give back details, and how many
        /// entries' details it failed for.
        var failure: (reason: String, count: Int)?

        mutating func fail(_ reason: String) {
            failure = (failure?.reason ?? reason, (failure?.count ?? 0) + 1)
        }
    }

    /// Guarded by `lock`: a pthread mutex, which the thread sanitizer understands.
    private var state: State
    private let lock = NSLock()
    /// Where the scratch file is made.
    private let directory: String

    init(budget: Int, directory: String) {
        state = State(budgetLeft: budget)
        self.directory = directory
    }

    deinit {
        if state.descriptor >= 0 { close(state.descriptor) }
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { body(&state) }
    }

    /// What `--verbose` says when the scratch file failed, which no page shows: the pages
    /// of the entries whose details it failed for parsed their files again.
    var failureNote: String? {
        withState { state in
            state.failure.map { reason, count in
                "the details of \(count) parsed \(count == 1 ? "entry" : "entries") could not "
                    + "be kept in a scratch file in \(directory) (\(reason)): their pages "
                    + "parsed their files again"
            }
        }
    }

    /// Keeps `details`: in memory while the budget lasts, then in the scratch file. Nil when
    /// the scratch file cannot be written: the entry's page then parses its file again, and
    /// `failureNote` says so.
    func keep(_ details: FruitDetails) -> KeptDetails? {
        let size = details.body.count
        let fits = withState { state in
            guard state.budgetLeft >= size else { return false }
            state.budgetLeft -= size
            return true
        }
        if fits { return .inMemory(details) }
        var writer = ByteWriter()
        details.encode(into: &writer)
        let bytes = writer.bytes
        let offset = withState { state -> Int? in
            if state.descriptor < 0 && state.unavailable == nil {
                state.descriptor = Self.makeScratchFile(in: directory)
                if state.descriptor < 0 { state.unavailable = "\(SystemError.last)" }
            }
            if let reason = state.unavailable {
                state.fail(reason)
                return nil
            }
            let offset = state.end
            let written = bytes.withUnsafeBytes {
                pwrite(state.descriptor, $0.baseAddress, $0.count, off_t(offset))
            }
            guard written == bytes.count else {
                state.fail(written < 0 ? "\(SystemError.last)" : "a short write")
                return nil
            }
            state.end += bytes.count
            return offset
        }
        return offset.map { .spilled(self, offset: $0, count: bytes.count) }
    }

    /// The details written at `offset`; nil if they cannot be read back, which
    /// `failureNote` then says.
    fileprivate func load(offset: Int, count: Int) -> FruitDetails? {
        let descriptor = withState { $0.descriptor }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes {
            pread(descriptor, $0.baseAddress, count, off_t(offset))
        }
        let error = SystemError.last
        let details =
            read == count
            ? bytes.withUnsafeBytes { buffer in
                var reader = ByteReader(buffer, offset: 0)
                return FruitDetails.decode(from: &reader)
            } : nil
        if details == nil {
            withState { state in
                state.fail(read < 0 ? "\(error)" : read < count ? "a short read" : "damaged")
            }
        }
        return details
    }

    /// An unlinked file in `directory`, open for reading and writing; -1 on failure.
    private static func makeScratchFile(in directory: String) -> Int32 {
        var template = Array((directory + "/.fruitsite-details-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return -1 }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return descriptor
    }
}

/// An entry's details as a scan kept them.
enum KeptDetails: Sendable {
    case inMemory(FruitDetails)
    case spilled(DetailsStore, offset: Int, count: Int)

    /// The details; nil if the scratch file cannot be read back.
    func load() -> FruitDetails? {
        switch self {
        case .inMemory(let details): details
        case .spilled(let store, let offset, let count): store.load(offset: offset, count: count)
        }
    }
}

extension FruitDetails {
    func encode(into writer: inout ByteWriter) {
        writer.string(body)
        Self.encode(.object(params), into: &writer)
    }

    /// Read back as bytes: the body was valid UTF-8 when it was kept.
    static func decode(from reader: inout ByteReader) -> FruitDetails? {
        guard let body = reader.bytes(), case .object(let params)? = decode(value: &reader),
            reader.isAtEnd
        else { return nil }
        return FruitDetails(body: body, params: params)
    }

    /// A value as a tag, then its contents.
    private static func encode(_ value: MustacheValue, into writer: inout ByteWriter) {
        switch value {
        case .null: writer.integer(0)
        case .bool(let flag): writer.integer(flag ? 2 : 1)
        case .int(let number):
            writer.integer(3)
            writer.integer(number)
        case .double(let number):
            writer.integer(4)
            writer.word(number.bitPattern)
        case .string(let text):
            writer.integer(5)
            writer.string(text)
        case .utf8(let bytes):
            writer.integer(8)
            writer.string(bytes)
        case .array(let items):
            writer.integer(6)
            writer.integer(items.count)
            for item in items { encode(item, into: &writer) }
        case .object(let members):
            writer.integer(7)
            writer.integer(members.count)
            for (key, member) in members {
                writer.string(key)
                encode(member, into: &writer)
            }
        }
    }

    private static func decode(value reader: inout ByteReader) -> MustacheValue? {
        switch reader.integer() {
        case 0: return .null
        case 1: return .bool(false)
        case 2: return .bool(true)
        case 3: return reader.integer().map { .int($0) }
        case 4: return reader.word().map { .double(Double(bitPattern: $0)) }
        case 5: return reader.string().map { .string($0) }
        case 8: return reader.bytes().map { .utf8($0) }
        case 6:
            guard let count = reader.integer(), count >= 0 else { return nil }
            var items: [MustacheValue] = []
            for _ in 0..<count {
                guard let item = decode(value: &reader) else { return nil }
                items.append(item)
            }
            return .array(items)
        case 7:
            guard let count = reader.integer(), count >= 0 else { return nil }
            var members = MustacheObject()
            for _ in 0..<count {
                guard let key = reader.string(), let member = decode(value: &reader) else {
                    return nil
                }
                members[key] = member
            }
            return .object(members)
        default: return nil
        }
    }
}
