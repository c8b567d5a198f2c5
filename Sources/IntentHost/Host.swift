import Foundation
import Logging
import IntentProtocol
import Understanding
import ZeroMQ

/// The intents host: binds the client and extension endpoints, launches the configured
/// extensions, routes every request, and drives each intent's lifecycle.
public final class Host: Sendable {
    /// The configuration it runs with.
    public let configuration: HostConfiguration
    private let mailbox: Mailbox<BrokerCommand>
    private let log = Logger(label: HostLog.label)
    /// Every request sent to an extension, counted by app (the console charts it).
    public let traffic = TrafficMeter()

    private let catalog: Catalog
    private let languages: [String: LanguagePack]

    /// Prepares a host: checks the state directory and loads the catalog and the language
    /// files, so that a host that cannot run says so before anything starts; nothing is
    /// bound until `run`.
    public init(configuration: HostConfiguration) throws {
        let config = configuration
        self.configuration = configuration
        mailbox = try Mailbox()
        try StateDirectory.create(config.stateDirectory.url)
        // Keys and the trust store live here: refuse a directory others could read or change.
        if let problem = config.stateDirectory.ownershipProblem() { throw ConfigurationError(problem) }
        guard let directories = config.catalogDirectories.isEmpty ? Catalog.locate().map({ [$0] }) : config.catalogDirectories else {
            throw ConfigurationError("cannot find the domain catalog; pass --catalog DIR (the Protocols/domains folder)")
        }
        catalog = try Catalog(directories: directories)
        log.info("catalog: \(catalog.domains.map(\.name).joined(separator: ", ")) from \(directories.map(\.path).joined(separator: ", "))")

        guard let languagesDirectory = config.languagesDirectory ?? LanguagePack.locate(besideCatalog: directories.first) else {
            throw ConfigurationError("cannot find the language files; pass --languages DIR (the Protocols/languages folder)")
        }
        let additions = try config.languageAdditions()
        languages = try LanguagePack.all(in: languagesDirectory, adding: additions.sorted { $0.path < $1.path })
        guard languages[config.defaultLanguage] != nil else {
            throw ConfigurationError("no language file for the default language \"\(config.defaultLanguage)\" in \(languagesDirectory.path)")
        }
        let added = additions.isEmpty ? "" : ", with \(additions.map(\.path).joined(separator: ", "))"
        log.info("languages: \(languages.keys.sorted().joined(separator: ", ")) from \(languagesDirectory.path)\(added)")
        for pack in languages.values.sorted(by: { $0.language < $1.language }) {
            for unfit in pack.unfitPatterns(in: catalog) { log.warning("\(unfit)") }
        }
    }

    /// Binds, launches the extensions, and returns once `stop` is called.
    public func run() async throws {
        let config = configuration
        let catalog = self.catalog, languages = self.languages

        let ledger = LaunchLedger()
        let launcher = ExtensionLauncher(config: config, ledger: ledger) { [mailbox] token in mailbox.post(.processExited(token)) }
        let executables = try launcher.resolveAll()
        // Known before the broker listens: a request said before they register waits for them.
        launcher.board.plan(executables)
        let mailbox = self.mailbox
        let executor = BrokerExecutor(mailbox: mailbox)
        let link = BrokerLink()
        let driver = LifecycleDriver(
            sender: TracingStageSender(wrapped: BrokerStageSender(link: link)),
            batchedStages: config.batchedStages, handleInBatch: config.handleInBatch, keyed: KeyedHandles(journal: HandleJournal(url: config.stateDirectory.handleJournalFile)),
            faults: ExtensionFaultLog())
        let dialog = DialogEngine(
            languages: languages, defaultLanguage: config.defaultLanguage, catalog: catalog,
            host: BrokerDialogHost(link: link, executor: executor), driver: driver,
            timeout: config.sessionTimeout, limits: config.admission.conversations)
        // Lifecycles run on the broker actor, their tasks preferring its thread (see
        // BrokerExecutor): one mailbox entry per stage, no thread hops.
        let startLifecycle: @Sendable (LifecycleJob) -> Void = { [log] job in
            Task(executorPreference: executor) { await link.broker?.drive(job, with: driver, log: log) }
        }
        // The broker is made on its own thread, which then owns its sockets for good.
        let (events, report) = AsyncStream.makeStream(of: BrokerEvent.self)
        IOThread.start(name: "intentd-broker") { [traffic] in
            do {
                let broker = try Broker(
                    config: config, catalog: catalog, context: try Context(), mailbox: mailbox,
                    executor: executor, dialog: dialog, launcher: launcher, traffic: traffic,
                    startLifecycle: startLifecycle)
                link.set(broker)
                report.yield(.started)
                broker.run()
                link.set(nil)
            } catch {
                report.yield(.failed("\(error)"))
            }
            report.yield(.finished)
            report.finish()
        }
        var iterator = events.makeAsyncIterator()
        if case .failed(let why)? = await iterator.next() { throw ConfigurationError(why) }

        var launchError: (any Error)?
        do {
            try launcher.launch(executables)
            log.info("ready")
        } catch {
            launchError = error
            mailbox.post(.stop)
        }
        while let event = await iterator.next(), event != .finished {}
        launcher.stopAll()
        for endpoint in [config.clientEndpoint, config.extensionEndpoint, config.updatesEndpoint] where endpoint.hasPrefix("ipc://") {
            try? FileManager.default.removeItem(atPath: String(endpoint.dropFirst(6)))
        }
        log.info("stopped")
        if let launchError { throw launchError }
    }

    /// Asks a running host to stop; `run` returns once it has.
    public func stop() {
        mailbox.post(.stop)
    }
}

/// What the broker thread reports to `Host.run`.
private enum BrokerEvent: Sendable, Equatable {
    case started
    case failed(String)
    case finished
}
