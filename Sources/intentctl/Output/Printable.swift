import IntentProtocol

/// Everything intentctl prints with `print` comes through here. What it prints carries
/// strings peers chose (an extension's resolutions and replies, its vocabulary, an update's
/// topic), so they reach the terminal with their control characters escaped
/// (`PeerNames.printable`): an extension cannot clear the user's screen or retitle it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(PeerNames.printable(items.map { "\($0)" }.joined(separator: separator)), terminator: terminator)
}
