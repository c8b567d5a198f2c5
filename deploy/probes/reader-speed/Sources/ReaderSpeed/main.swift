import Foundation
import FuzzSupport

// Reads every file of a directory as typed text, as FuzzRequest reads an input, and says
// how many per second and how long each took (the slowest five named).
let arguments = CommandLine.arguments.dropFirst()
guard let directory = arguments.first(where: { !$0.hasPrefix("--") }) else {
    print("usage: ReaderSpeed DIRECTORY [--request-only | --print]")
    exit(2)
}
let requestOnly = arguments.contains("--request-only")
let typed = TypedText()
let files = ((try? FileManager.default.contentsOfDirectory(at: URL(fileURLWithPath: directory), includingPropertiesForKeys: nil)) ?? [])
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
// `--print`: what each input reads as instead, to compare the readings of two builds.
if arguments.contains("--print") {
    for file in files {
        guard let data = try? Data(contentsOf: file), let text = String(data: data, encoding: .utf8) else { continue }
        print("== \(file.lastPathComponent)\n\(typed.readings(text))")
    }
    exit(0)
}
let texts = files.compactMap { try? Data(contentsOf: $0) }.compactMap { String(data: $0, encoding: .utf8) }
var took: [(milliseconds: Double, text: String)] = []
let start = ContinuousClock.now
for text in texts {
    let began = ContinuousClock.now
    typed.read(text, requestOnly: requestOnly)
    took.append(((ContinuousClock.now - began) / .milliseconds(1), text))
}
let seconds = (ContinuousClock.now - start) / .seconds(1)
let sorted = took.sorted { $0.milliseconds < $1.milliseconds }
func percentile(_ q: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * q))].milliseconds }
print(String(format: "%d inputs in %.2f s: %.0f per second; ms p50 %.2f, p90 %.2f, p99 %.2f, max %.2f", texts.count, seconds,
    Double(texts.count) / max(seconds, 1e-9), percentile(0.5), percentile(0.9), percentile(0.99), sorted.last?.milliseconds ?? 0))
for (milliseconds, text) in sorted.suffix(5).reversed() { print(String(format: "%8.2f ms  ", milliseconds) + String(text.prefix(100)).debugDescription) }
