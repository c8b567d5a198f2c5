import Foundation
import Hummingbird

/// The console's files: one page, one script, one style sheet (from the module's `Page`
/// resources) and the map under rides (Zippy's coverage area and the places it knows),
/// read once at start.
struct ConsolePage: Sendable {
    enum File { case index, script, style, coverage, places }

    private let index: String
    private let script: [UInt8]
    private let style: [UInt8]
    private let coverage: [UInt8]?
    private let places: [UInt8]?

    static func load(map: URL?) throws -> ConsolePage {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw ConsoleError("the console's page is missing from its resource bundle")
        }
        func read(_ name: String) throws -> Data {
            do { return try Data(contentsOf: folder.appendingPathComponent(name)) } catch {
                throw ConsoleError("cannot read the console's \(name): \(error.localizedDescription)")
            }
        }
        // The map is optional: without Zippy's the page draws rides on a blank square.
        func mapFile(_ name: String) -> [UInt8]? {
            map.flatMap { try? Data(contentsOf: $0.appendingPathComponent(name)) }.flatMap { $0.count <= 1 << 20 ? Array($0) : nil }
        }
        return ConsolePage(
            index: String(decoding: try read("index.html"), as: UTF8.self), script: Array(try read("console.js")),
            style: Array(try read("console.css")), coverage: mapFile("coverage.geojson"), places: mapFile("places.json"))
    }

    /// The file as an answer. The page names its script and style with the token (which is
    /// hex, so it needs no escaping), as every request must carry it.
    func response(_ file: File, token: ConsoleToken) -> Response {
        switch file {
        case .index:
            let html = index.replacingOccurrences(of: "{{TOKEN}}", with: token.value)
            return Self.answer(Array(html.utf8), type: "text/html; charset=utf-8")
        case .script: return Self.answer(script, type: "text/javascript; charset=utf-8")
        case .style: return Self.answer(style, type: "text/css; charset=utf-8")
        case .coverage:
            guard let coverage else { return Response(status: .notFound) }
            return Self.answer(coverage, type: "application/geo+json")
        case .places:
            guard let places else { return Response(status: .notFound) }
            return Self.answer(places, type: "application/json")
        }
    }

    private static func answer(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
