import Foundation
import Synchronization

/// The handle being run on this task: its idempotency key, intent and deadline. The SDK
/// sets it while a handler with a key runs; storage that records work under the key (the
/// `ExtensionStorage` helper) reads it, so that the record and the app's own write commit
/// in one transaction.
public final class HandleScope: Sendable {
    /// The handle on this task, if any.
    @TaskLocal public static var current: HandleScope?

    /// The idempotency key: the same on every retry of this piece of work.
    public let key: String
    /// The intent's name.
    public let intent: String
    /// When the host stops waiting, in milliseconds since 1970 (UTC), if it said.
    public let deadline: Int64?
    private let steps = Mutex(0)

    /// Creates a scope for one handle.
    public init(key: String, intent: String, deadline: Int64?) {
        self.key = key
        self.intent = intent
        self.deadline = deadline
    }

    /// The number of the next write of this handle, from 1: retries replay the writes in
    /// the order they happen.
    public func nextStep() -> Int {
        steps.withLock { step in
            step += 1
            return step
        }
    }

    /// How many writes this handle has begun (`nextStep`).
    public var writes: Int { steps.withLock { $0 } }

    /// Whether the deadline has passed: work not yet committed must not commit any more.
    public var isPastDeadline: Bool {
        guard let deadline else { return false }
        return Self.nowMilliseconds() >= deadline
    }

    /// The wall clock, in milliseconds since 1970 (UTC), as deadlines are given.
    public static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// A write that did not commit because its handle's deadline had passed.
public struct HandleDeadlinePassed: Error, CustomStringConvertible {
    /// Creates the error.
    public init() {}
    public var description: String { "the deadline passed before the work was committed; nothing was changed" }
}

/// An idempotency key sent again with another intent than the first time.
public struct IdempotencyKeyReused: Error, CustomStringConvertible {
    /// The key.
    public let key: String
    /// Creates the error.
    public init(key: String) { self.key = key }
    public var description: String { "the idempotency key \(key) was used for another intent" }
}
