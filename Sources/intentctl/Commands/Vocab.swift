import ArgumentParser
import Foundation
import IntentClient
import IntentProtocol

/// `intentctl vocab APP [TYPE [TERM ...]]`
struct Vocab: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show or replace an app's user-specific vocabulary (contact names, list names, ...).",
        discussion: """
            intentctl vocab MonkeyChat                          shows the app's vocabulary
            intentctl vocab MonkeyChat contactName Bobo Coco    replaces the contactName terms, most important first
            intentctl vocab MonkeyChat contactName              removes the contactName terms
            intentctl vocab MonkeyChat --reset                  removes every term of the app
            """)

    @Argument(help: "The app.") var app: String
    @Argument(help: "The vocabulary type, such as contactName.") var type: String?
    @Argument(help: "The terms, most important first; none removes the type.") var terms: [String] = []
    @Flag(help: "Remove every term of every type.") var reset = false
    @Flag(help: "Print JSON.") var json = false
    @OptionGroup var connection: Connection

    func run() throws {
        let request = VocabularyRequest(set: type.map { UserVocabulary(type: $0, terms: terms) }, reset: reset ? true : nil)
        let state = try connection.client().vocabulary(app: app, request)
        if json {
            print(JSON.pretty(state))
            return
        }
        print("\(state.app) user vocabulary:" + (state.user.isEmpty ? " none" : ""))
        for (type, terms) in state.user.sorted(by: { $0.key < $1.key }) {
            print("  \(type): \(terms.joined(separator: ", "))")
        }
        if let vocabulary = state.appVocabulary {
            for entry in vocabulary.parameterVocabularies {
                let phrases = entry.items.compactMap { $0.synonyms.first?.phrase }
                print("  app terms for \(entry.parameterNames.joined(separator: ", ")): \(phrases.joined(separator: ", "))")
            }
            for phrases in vocabulary.intentPhrases {
                print("  \(phrases.intent) examples: \(phrases.examples.map { "\"\($0)\"" }.joined(separator: "; "))")
            }
        }
    }
}
