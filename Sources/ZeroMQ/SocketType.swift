import CZeroMQ

/// The socket types this project uses.
public enum SocketType: Sendable {
    case router, dealer, pair, pub, sub, push, pull

    var raw: Int32 {
        switch self {
        case .router: ZMQ_ROUTER
        case .dealer: ZMQ_DEALER
        case .pair: ZMQ_PAIR
        case .pub: ZMQ_PUB
        case .sub: ZMQ_SUB
        case .push: ZMQ_PUSH
        case .pull: ZMQ_PULL
        }
    }
}
