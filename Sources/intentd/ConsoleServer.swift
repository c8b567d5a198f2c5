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

    /// Prints the console's address, with its token, and keeps it in the state directory.
    static func announce(_ console: Console, host: String, port: Int, _ configuration: HostConfiguration, logger: Logger) {
        let url = console.address(host: host, port: port)
        do { try DurableFile.write(Array((url + "\n").utf8), to: urlFile(configuration.stateDirectory)) } catch {
            logger.warning("console: \(error)")
        }
        logger.info("console: \(url)")
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
