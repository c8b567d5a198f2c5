import Foundation
import IntentConsole
import IntentHost
import IntentProtocol
import Logging

/// The console on the host's HTTP side (`--http`): made for a host, and its address (with
/// the token) printed and kept in `STATE/console.url` once the server listens.
enum ConsoleServer {
    /// The console of `host`, or nil (logged) when it cannot be made; the host runs on without it.
    static func console(for host: IntentHost.Host, _ configuration: HostConfiguration, logger: Logger) -> Console? {
        let state = configuration.stateDirectory
        // An address left from an earlier run is not this one's until the console listens.
        try? FileManager.default.removeItem(at: urlFile(state))
        do {
            try StateDirectory.create(state.url)
            // The host refuses such a directory and stops: no token goes into it.
            guard state.ownershipProblem() == nil else { return nil }
            return try Console(
                setup: Console.Setup(
                    stateDirectory: state, clientEndpoint: configuration.clientEndpoint,
                    updatesEndpoint: configuration.updatesEndpoint, map: rideMap(), traffic: host.traffic))
        } catch {
            logger.error("console: \(error); intentd runs on without it")
            return nil
        }
    }

    /// Keeps the console's address, with its token, in the state directory, and prints it:
    /// with the token to a terminal, without it elsewhere (a service's standard error goes
    /// to a journal that others may read). Served on another port than the one `asked` for
    /// (it was taken), the console gets a new token: the old address, which pages and
    /// bookmarks keep trying, may now belong to another local user's server.
    static func announce(_ console: Console, host: String, port: Int, asked: Int, _ configuration: HostConfiguration, logger: Logger) {
        if asked != 0, port != asked {
            do {
                try console.token.renew()
                logger.warning("console: port \(asked) is taken, so the console has a new token; pages opened before must be opened again")
            } catch {
                logger.error("console: cannot renew its token: \(error)")
            }
        }
        let url = console.address(host: host, port: port)
        let file = urlFile(configuration.stateDirectory)
        do { try DurableFile.write(Array((url + "\n").utf8), to: file) } catch {
            logger.warning("console: \(error)")
        }
        if isatty(STDERR_FILENO) == 1 {
            logger.info("console: \(url)")
        } else {
            logger.info("console: \(console.address(host: host, port: port, withToken: false)) (its address with the token is in \(file.path))")
        }
    }

    private static func urlFile(_ state: StateDirectory) -> URL { state.url.appendingPathComponent("console.url") }

    /// Zippy's manifest folder (its coverage area and places), beside intentd's executable.
    static func rideMap() -> URL? {
        let directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let bundles = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return bundles.filter { $0.hasSuffix("_Zippy.resources") }.sorted().first
            .map { directory.appendingPathComponent($0).appendingPathComponent("Manifest") }
    }
}
