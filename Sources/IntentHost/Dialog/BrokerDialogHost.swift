import IntentProtocol

/// The broker's side of `DialogHost`: calls into the `Broker` actor.
struct BrokerDialogHost: DialogHost {
    let link: BrokerLink
    let executor: BrokerExecutor

    func world() async -> DialogWorld {
        await link.broker?.world() ?? DialogWorld(apps: [], locked: true)
    }

    func authorize(bundle: String, _ status: AuthorizationStatus) async {
        await link.broker?.authorizeApp(bundle: bundle, status: status)
    }

    func deliver(_ turn: Turn, to address: ClientAddress) {
        guard let broker = link.broker else { return }
        let body = (try? JSON.encode(turn)) ?? []
        Task(executorPreference: executor) { await broker.deliver(body, to: address) }
    }
}
