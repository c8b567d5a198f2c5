import FuzzSupport
import IntentProtocol
import ZeroMQ

/// One frame, read as each side reads what it receives: the host (client and extension
/// endpoints), a client and an extension. A frame that parses must write back to the
/// same bytes, and its body is read as the receiver reads it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let frames = [Message(input)][...]
    _ = Wire.bestEffortRequestID(frames)

    if let message = try? ClientMessage(frames: frames) {
        same(try? message.frame(), input, "ClientMessage")
        switch message {
        case .submit(_, _, _, let body): Bodies.read(body.bytes, as: .submission)
        case .vocab(_, _, let body): Bodies.read(body.bytes, as: .vocabulary)
        case .authorize(_, _, let body): Bodies.read(body.bytes, as: .authorization)
        case .say(_, let body): Bodies.read(body.bytes, as: .utterance)
        case .stage, .status, .lock, .restart: break
        }
    }
    if let message = try? ExtensionMessage(frames: frames) {
        // An extension's DISCONNECT may carry a reason, which the host does not keep.
        if case .disconnect = message {} else { same(try? message.frame(), input, "ExtensionMessage") }
        switch message {
        case .register(let body): Bodies.read(body.bytes, as: .registration)
        case .reply(_, let body): Bodies.read(body.bytes, as: .reply)
        case .update(_, let body): _ = try? JSONValue.parse(body.bytes)
        case .vocabulary(let body): Bodies.read(body.bytes, as: .vocabulary)
        case .heartbeat, .disconnect: break
        }
    }
    if let message = try? HostToClient(frames: frames) {
        // A text that is not UTF-8 reads as "", so only a UTF-8 one writes back the same.
        if case .error(_, _, let text) = message, text.isEmpty {} else { same(try? message.frame(), input, "HostToClient") }
        if case .result(_, let body) = message {
            for kind in [Bodies.Kind.outcome, .hostStatus, .lockState, .turn, .vocabulary] { Bodies.read(body.bytes, as: kind) }
        }
    }
    if let message = try? HostToExtension(frames: frames) {
        switch message {
        case .rejected(_, let text) where text.isEmpty, .disconnect(let text) where text.isEmpty: break
        default: same(try? message.frame(), input, "HostToExtension")
        }
        switch message {
        case .registered(let body): Bodies.read(body.bytes, as: .registered)
        case .request(_, _, _, let body): Bodies.read(body.bytes, as: .stageRequest)
        case .vocabulary(let body): Bodies.read(body.bytes, as: .vocabulary)
        case .rejected, .heartbeat, .disconnect: break
        }
    }
    return 0
}

/// A parsed message written again is the frame it was parsed from.
private func same(_ written: Message?, _ input: UnsafeRawBufferPointer, _ what: String) {
    guard let written else { return Fuzzing.check(false, "a parsed \(what) cannot be written again") }
    Fuzzing.check(written.withUnsafeBytes { Array($0) } == Array(input), "a parsed \(what) writes different bytes")
}
