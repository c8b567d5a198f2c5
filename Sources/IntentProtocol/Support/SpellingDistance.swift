/// How far apart two spellings are, for matching a name said with a typo to one an
/// extension knows ("ferry bulding", "Ferry Building").
public enum SpellingDistance {
    /// The Damerau-Levenshtein distance: letters added, dropped or changed, and two
    /// neighbours swapped, each count one ("bulding" and "building": 1).
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// The typos a word of this many letters may have and still be taken for it: none
    /// below four letters, one below eight, else two.
    public static func allowed(inWordOf length: Int) -> Int {
        length >= 8 ? 2 : (length >= 4 ? 1 : 0)
    }

    /// The one of `known` nearest `name` (counting letters apart case aside), when it is
    /// near enough to be what was meant ("SendMesage", "sendMessage": "SendMessage"); nil
    /// when `name` is one of them or none is near.
    public static func nearest(to name: String, among known: [String]) -> String? {
        let lowered = name.lowercased()
        let distance = { (other: String) in between(lowered, other.lowercased()) }
        guard !known.contains(name),
            let nearest = known.min(by: { distance($0) < distance($1) }), distance(nearest) <= max(2, name.count / 4)
        else { return nil }
        return nearest
    }
}
