import Foundation
import IntentProtocol
import Synchronization
import Testing

@Suite("Key files")
struct KeyFileTests {
    @Test("A key file being created is never seen half written, and creators at once agree on one pair")
    func keyFileAppearsWhole() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keyfile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let partial = Atomic<Int>(0)
        for round in 0..<200 {
            let file = directory.appendingPathComponent("keys/client-\(round).key")
            let done = Atomic<Bool>(false)
            // A reader that looks at the path as fast as it can while it is made.
            let reader = Thread {
                while !done.load(ordering: .relaxed) {
                    guard let data = FileManager.default.contents(atPath: file.path) else { continue }
                    if (try? JSONSerialization.jsonObject(with: data)) == nil { partial.wrappingAdd(1, ordering: .relaxed) }
                }
            }
            reader.start()
            let keys = Mutex<[String]>([])
            let creators = (0..<2).map { _ in Thread { if let pair = try? KeyFile.loadOrCreate(file) { keys.withLock { $0.append(pair.publicKey) } } } }
            creators.forEach { $0.start() }
            let deadline = ContinuousClock.now + .seconds(5)
            while keys.withLock({ $0.count }) < creators.count, ContinuousClock.now < deadline { usleep(200) }
            done.store(true, ordering: .relaxed)
            let seen = keys.withLock { $0 }
            #expect(seen.count == 2 && Set(seen).count == 1, "round \(round): \(seen)")
        }
        #expect(partial.load(ordering: .relaxed) == 0, "a key file was read half written")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("keys").path)
        #expect(left.allSatisfy { $0.hasSuffix(".key") }, "temporary files left: \(left.filter { !$0.hasSuffix(".key") })")
    }
}
