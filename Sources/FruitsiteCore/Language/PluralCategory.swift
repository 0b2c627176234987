/// One of CLDR's plural categories: the form of a counted message a number takes. Which
/// numbers each language puts in which category is CLDR's rule (`PluralRules`).
public enum PluralCategory: String, Sendable, CaseIterable, Comparable {
    case zero, one, two, few, many, other

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
