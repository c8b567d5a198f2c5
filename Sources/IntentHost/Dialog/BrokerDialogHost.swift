import IntentProtocol
import ZeroMQ

/// The broker's side of `DialogHost`: every call is a mailbox command.
struct BrokerDialogHost: DialogHost {
    let mailbox: Mailbox<BrokerCommand>
    let executor: BrokerExecutor

    func world() async -> DialogWorld {
        await withCheckedContinuation { continuation in
            mailbox.post(.world { continuation.resume(returning: $0) }, wake: !executor.isOnBrokerThread)
        }
    }

    func authorize(bundle: String, _ status: AuthorizationStatus) async {
        await withCheckedContinuation { continuation in
            mailbox.post(.authorizeApp(bundle: bundle, status: status) { continuation.resume() }, wake: !executor.isOnBrokerThread)
        }
    }

    func deliver(_ turn: Turn, to address: ClientAddress) {
        let body = (try? JSON.encode(turn)) ?? []
        mailbox.post(.turn(routingID: address.routingID, requestID: address.requestID, body: body), wake: !executor.isOnBrokerThread)
    }
}
