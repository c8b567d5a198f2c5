import IntentProtocol

/// Keeps a STATUS answer within the host's message limit, which it announces in it.
enum StatusBound {
    /// `status` with `maxMessageBytes` set, and, if the whole of it would be larger than
    /// that, without the oldest rejections and then the last apps, marked `truncated`.
    static func fit(_ status: HostStatus, within limit: Int) -> HostStatus {
        var status = status
        status.maxMessageBytes = limit
        guard size(status) > limit else { return status }
        status.truncated = true
        while size(status) > limit, !(status.rejected.isEmpty && status.extensions.isEmpty) {
            var excess = size(status) - limit
            while excess > 0, !status.rejected.isEmpty {
                excess -= size(status.rejected.removeFirst()) + 1
            }
            while excess > 0, !status.extensions.isEmpty {
                excess -= size(status.extensions.removeLast()) + 1
            }
        }
        return status
    }

    private static func size(_ value: some Encodable) -> Int { (try? JSON.encode(value))?.count ?? 0 }
}
