import Foundation
import IntentProtocol
import ZeroMQ

/// A peer that speaks the wire by hand over one DEALER socket, as an attacker would, and
/// keeps everything it hears.
final class RawPeer {
    let socket: Socket

    /// Connects to `endpoint`, with `security` (nil: the NULL mechanism, no key at all).
    convenience init(endpoint: String, security: ConnectionSecurity?) throws {
        try self.init(endpoint: endpoint) { socket in try security?.apply(to: socket, endpoint: endpoint) }
    }

    /// Connects to `endpoint` after `configure` set the socket's options, as it likes.
    init(endpoint: String, configure: (Socket) throws -> Void) throws {
        socket = try Socket(try Context(), .dealer)
        try configure(socket)
        try socket.connect(endpoint)
    }

    /// Sends REGISTER with `registration`, never waiting: a peer the host refused has no
    /// connection to queue on, and its message is dropped.
    func register(_ registration: Registration) throws {
        _ = try ExtensionMessage.register(body: Body(try JSON.encode(registration))).send(on: socket, wait: false)
    }

    /// Sends a client message, never waiting (see `register`).
    func send(_ message: ClientMessage) throws {
        _ = try message.send(on: socket, wait: false)
    }

    /// Every message received within `milliseconds` (waiting that long in all).
    func receiveAll(for milliseconds: Int) throws -> [[Message]] {
        var poller = Poller()
        poller.add(socket)
        var received: [[Message]] = []
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < deadline {
            guard try poller.poll(timeout: 50) > 0 else { continue }
            while let frames = try socket.receiveFrames(wait: false) { received.append(frames) }
        }
        return received
    }

    /// Registers `registration` over a new connection and returns the host's answer
    /// (`registered`, or the rejection code; nil if it said nothing) with the peer.
    static func register(
        _ registration: Registration, at endpoint: String, as security: ConnectionSecurity?
    ) throws -> (answer: String?, peer: RawPeer) {
        let peer = try RawPeer(endpoint: endpoint, security: security)
        try peer.register(registration)
        switch try peer.extensionMessages(for: 300).first {
        case .registered?: return ("registered", peer)
        case .rejected(let code, _)?: return (code, peer)
        default: return (nil, peer)
        }
    }

    /// What an extension heard, decoded.
    func extensionMessages(for milliseconds: Int) throws -> [HostToExtension] {
        try receiveAll(for: milliseconds).compactMap { try? HostToExtension(frames: $0[...]) }
    }
}

/// MonkeyChat's manifest, as anyone can read it.
enum Manifests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func monkeyChat() throws -> Registration {
        try Manifest(contentsOf: sources.appendingPathComponent("Extensions/Messaging/Manifest/Info.plist")).registration.normalized()
    }
}
