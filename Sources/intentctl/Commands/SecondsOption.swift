import ArgumentParser
import IntentProtocol

extension Duration {
    /// The seconds a person gave to `flag` as a duration, or a usage error for a number out
    /// of range (a huge one would otherwise trap).
    static func seconds(_ seconds: Double, for flag: String) throws -> Duration {
        guard let duration = checkedSeconds(seconds) else { throw ValidationError("\(flag) takes seconds, 0 to 1000000000") }
        return duration
    }
}
