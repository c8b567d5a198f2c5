extension Duration {
    /// `seconds` as a duration, or nil unless it is a finite number from 0 to a billion:
    /// seconds a person or a file gives are checked, so a huge one is an error, not a trap.
    public static func checkedSeconds(_ seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds >= 0, seconds <= 1e9 else { return nil }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }
}
