/// A command that was used rightly but could not do its work (no such log, a file that
/// exists already): printed as `Error: …` without the usage, which a `ValidationError`
/// adds for arguments given wrongly.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
