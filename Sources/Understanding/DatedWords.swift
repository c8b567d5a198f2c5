/// Words said, with what every intent's reading of them shares: the date found in them and
/// the pattern words they can match (taking modifiers out only removes words, so these
/// bound what is left).
struct DatedWords {
    let reader: ValueReader
    let date: (range: Range<Int>, value: String, past: String)?
    let words: SaidWords

    init(_ said: [Token], _ requests: RequestReader, apps: [AppProfile]) {
        reader = ValueReader(pack: requests.pack, clock: requests.clock)
        date = requests.date(in: said, reader, apps: apps)
        words = SaidWords(said)
    }
}
