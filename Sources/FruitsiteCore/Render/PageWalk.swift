import Mustache

/// What a part of a page is made from. A value (a number, a text) hashes itself; a read of
/// the model's fruits hashes as the hashes the model keeps of them (`FruitReads`), of its
/// groups as their names and sizes (`GroupReads`), of the site's settings as their texts. A
/// part's value is made from its reads alone (`PageWalk`), and what a read names is looked up
/// by it (`PageData.group(of:)`, `settings(of:)`), so their hash covers everything the part
/// shows.
///
/// Reads are values of concrete types, most of them plain: no `Optional` or `Array` of reads,
/// whose copies went through the runtime's generic value witnesses, and no class, whose every
/// copy counts a reference; together they had tripled what hashing a page cost.
protocol PageRead {
    func combine(into hasher: inout StableHasher)
    /// Marks what the read shows that is made ready before a batch of pages is rendered: the
    /// fruits' summaries (`SummaryCache`) and the sitemap's list.
    func mark(_ marks: inout PageMarks)
}

extension PageRead {
    func mark(_ marks: inout PageMarks) {}
}

extension Int: PageRead {
    func combine(into hasher: inout StableHasher) {
        hasher.combine(UInt64(bitPattern: Int64(self)))
    }
}

extension Bool: PageRead {
    func combine(into hasher: inout StableHasher) { hasher.combine(UInt64(self ? 1 : 0)) }
}

extension String: PageRead {
    func combine(into hasher: inout StableHasher) { hasher.combine(self) }
}

/// Goes over the parts of one page as its kind declares them (`PageData.walk`): each part with
/// what it reads and how its value is made from that. A page's input hash, its template data
/// or bytes, and what is made ready for it are walks of that one declaration, so what a page
/// shows and what its hash covers cannot drift apart.
protocol PageWalk {
    /// Whether the page's templates can show `input` (`PageInput.isShown(by:)`).
    func shows(_ input: PageInput) -> Bool

    /// A part of a template's data: the variables of `input`, which `value` makes from `reads`
    /// alone. A part whose variables the templates never look up is skipped.
    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject)

    /// The bytes of a file fruitsite writes itself, which `bytes` makes from `reads` alone.
    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8])
}

extension PageWalk {
    /// What files are made from that are assembled from other files once those are made, as
    /// the sharded search index's manifest names the others by their bytes: hashed as a
    /// file's reads are, the bytes made by the caller.
    mutating func add<each Read: PageRead>(assembledFrom reads: repeat each Read) {
        add(file: repeat each reads) { (_: repeat each Read) throws(BuildFailure) in
            preconditionFailure("an assembled file's bytes are made by its caller")
        }
    }
}

/// The hash of what a page shows: of each part's reads.
struct InputHashing: PageWalk {
    let shown: PageInput.Set
    var hasher = StableHasher()

    func shows(_ input: PageInput) -> Bool { shown.contains(input) }

    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject
    ) {
        guard shown.contains(input) else { return }
        hasher.combine(UInt64(input.rawValue))
        for read in repeat each reads { read.combine(into: &hasher) }
    }

    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8]
    ) {
        for read in repeat each reads { read.combine(into: &hasher) }
    }
}

/// A page's template data: every shown part's value, merged.
struct TemplateData: PageWalk {
    let shown: PageInput.Set
    var object = MustacheObject()
    /// What a value failed with (reading a fruit's details), after which none is made.
    var failure: BuildFailure?

    func shows(_ input: PageInput) -> Bool { shown.contains(input) }

    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject
    ) {
        guard shown.contains(input), failure == nil else { return }
        do {
            object.merge(try value(repeat each reads))
        } catch {
            failure = error
        }
    }

    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8]
    ) {
        preconditionFailure("a templated page adds no file")
    }
}

/// The bytes of a file fruitsite writes itself.
struct FileBytes: PageWalk {
    var bytes: Result<[UInt8], BuildFailure> = .success([])

    func shows(_ input: PageInput) -> Bool { true }

    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject
    ) {
        preconditionFailure("a file has no template data")
    }

    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8]
    ) {
        self.bytes = Result { () throws(BuildFailure) in try bytes(repeat each reads) }
    }
}

/// What the shown parts of pages mark (`PageRead.mark`), for a batch of pages.
struct Marking: PageWalk {
    var shown: PageInput.Set
    var marks: PageMarks

    func shows(_ input: PageInput) -> Bool { shown.contains(input) }

    mutating func add<each Read: PageRead>(
        _ input: PageInput, _ reads: repeat each Read,
        value: (repeat each Read) throws(BuildFailure) -> MustacheObject
    ) {
        guard shown.contains(input) else { return }
        for read in repeat each reads { read.mark(&marks) }
    }

    mutating func add<each Read: PageRead>(
        file reads: repeat each Read, bytes: (repeat each Read) throws(BuildFailure) -> [UInt8]
    ) {
        for read in repeat each reads { read.mark(&marks) }
    }
}
