/// Writes one JSON object member by member straight to bytes, for the bodies on the
/// lifecycle path: no intermediate `JSONValue` object is built, hashed or sorted. Callers add
/// members in sorted key order, so the bytes are exactly those `JSONWriter` writes for the
/// same object; absent members are left out.
struct JSONObjectWriter {
    private(set) var writer: JSONWriter
    private var empty = true

    /// Starts an object in `writer`.
    init(_ writer: JSONWriter) {
        self.writer = writer
        self.writer.raw("{")
    }

    /// Starts an object in a new writer.
    init(capacity: Int = 256) { self.init(JSONWriter(capacity: capacity)) }

    /// Adds `key` with `value`, unless `value` is nil.
    mutating func add(_ key: StaticString, _ value: JSONValue?) {
        guard let value else { return }
        start(key)
        writer.write(value)
    }

    /// Adds `key` with `true` when `flag` is, and nothing when it is false (the default).
    mutating func add(_ key: StaticString, trueIf flag: Bool) {
        guard flag else { return }
        start(key)
        writer.raw("true")
    }

    /// Adds `key` with a value another type writes, unless `value` is nil.
    mutating func add<Value: JSONObjectWritable>(_ key: StaticString, _ value: Value?) {
        guard let value else { return }
        start(key)
        value.write(to: &writer)
    }

    /// Adds `key` with an array of values another type writes.
    mutating func add<Value: JSONObjectWritable>(_ key: StaticString, array: [Value]) {
        start(key)
        writer.raw("[")
        for (i, element) in array.enumerated() {
            if i > 0 { writer.raw(",") }
            element.write(to: &writer)
        }
        writer.raw("]")
    }

    /// Closes the object and returns the writer.
    consuming func finished() -> JSONWriter {
        writer.raw("}")
        return writer
    }

    private mutating func start(_ key: StaticString) {
        writer.raw(empty ? "\"" : ",\"")
        writer.raw(key)
        writer.raw("\":")
        empty = false
    }
}

/// A body that writes itself as a JSON object straight to bytes (`JSONObjectWriter`); its
/// `serialized()` is the same bytes as `json.serialized()`, without building `json`.
protocol JSONObjectWritable {
    /// Appends the value's JSON to `writer`.
    func write(to writer: inout JSONWriter)
}

extension JSONObjectWritable {
    /// The value as compact UTF-8 JSON with sorted keys.
    func writtenBytes(capacity: Int = 256) -> [UInt8] {
        var writer = JSONWriter(capacity: capacity)
        write(to: &writer)
        return writer.bytes
    }
}
