import Foundation
import Testing
@testable import LoadTest

@Suite("Process stat")
struct ProcessStatTests {
    @Test("A stat line is read past a command name holding parentheses and spaces")
    func commandWithParentheses() throws {
        let line = "4242 (a) b (c) S 17 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 123 1000 10\n"
        let stat = try #require(ProcessStat.parse(line))
        #expect(stat.command == "a) b (c")
        #expect(stat.state == "S")
        #expect(stat.parent == 17)
        #expect(abs(stat.cpuSeconds - 300 / Double(sysconf(Int32(_SC_CLK_TCK)))) < 1e-9)
        #expect(!stat.hasEnded)
        #expect(ProcessStat.parse("4242 (x) Z 1")?.hasEnded == nil, "too few fields")
    }

    @Test("This process reads as running, with its parent; a child that exited reads as ended or gone")
    func liveAndEnded() throws {
        let me = try #require(ProcessStat.read(pid: Int(getpid())))
        #expect(me.parent == Int(getppid()))
        #expect(!me.hasEnded)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        let pid = Int(child.processIdentifier)
        // Process reaps its child on its own thread: until then it reads as ended, after as gone.
        let ended = (0..<200).contains { _ in
            usleep(10_000)
            return ProcessStat.read(pid: pid).map(\.hasEnded) ?? true
        }
        #expect(ended)
        #expect(ProcessStat.read(pid: Int(Int32.max)) == nil)
    }
}
