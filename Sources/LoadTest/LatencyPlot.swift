import Foundation
import Histogram

/// Draws latency-by-percentile charts as SVG: the x axis spreads the tail (50%, 90%,
/// 99%, 99.9%, 99.99%), the y axis is latency in milliseconds.
public struct LatencyPlot {
    /// One line on the chart.
    public struct Series {
        /// The legend text.
        public var label: String
        /// (percentile 0-100, microseconds) points, increasing.
        public var points: [(Double, Double)]
        /// Whether to draw only markers (for the reference's three percentiles).
        public var markersOnly: Bool

        /// A series from a histogram.
        public init(label: String, histogram: Histogram<UInt64>) {
            self.label = label
            points = histogram.totalCount == 0 ? [] : histogram.percentiles(ticksPerHalfDistance: 5).map {
                (min($0.percentile, 99.999), Double($0.value))
            }
            markersOnly = false
        }

        /// A series of a few known points.
        public init(label: String, points: [(Double, Double)], markersOnly: Bool) {
            self.label = label
            self.points = points
            self.markersOnly = markersOnly
        }
    }

    /// The chart's title.
    public var title: String
    /// The lines.
    public var series: [Series]

    /// Creates a chart.
    public init(title: String, series: [Series]) {
        self.title = title
        self.series = series
    }

    /// x position for a percentile: log of 1/(1-p), so each extra nine gets equal room.
    static func x(_ percentile: Double) -> Double { log10(1 / max(1e-5, 1 - percentile / 100)) }

    /// The SVG document.
    public func svg(width: Double = 720, height: Double = 420) -> String {
        // Room on the right for the last percentile's label.
        let left = 70.0, right = 40.0, top = 40.0, bottom = 50.0
        let plotW = width - left - right, plotH = height - top - bottom
        let maxX = 5.0
        let (step, ticks) = Self.ticks(upTo: max(0.001, (series.flatMap(\.points).map(\.1).max() ?? 1) / 1000 * 1.05))
        let maxY = step * Double(ticks)
        func px(_ p: Double) -> Double { left + Self.x(p) / maxX * plotW }
        func py(_ us: Double) -> Double { top + plotH - (us / 1000) / maxY * plotH }
        let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd"]
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(width / 2)" y="22" text-anchor="middle" font-size="15">\(escape(title))</text>
            <line x1="\(left)" y1="\(top + plotH)" x2="\(left + plotW)" y2="\(top + plotH)" stroke="black"/>
            <line x1="\(left)" y1="\(top)" x2="\(left)" y2="\(top + plotH)" stroke="black"/>

            """
        for (p, label) in [(0.0, "0%"), (50.0, "50%"), (90.0, "90%"), (99.0, "99%"), (99.9, "99.9%"), (99.99, "99.99%"), (99.999, "99.999%")] {
            svg += "<line x1=\"\(px(p))\" y1=\"\(top)\" x2=\"\(px(p))\" y2=\"\(top + plotH)\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(px(p))\" y=\"\(top + plotH + 18)\" text-anchor=\"middle\">\(label)</text>\n"
        }
        for i in 0...ticks {
            let ms = step * Double(i)
            let y = top + plotH - Double(i) / Double(ticks) * plotH
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plotW)\" y2=\"\(y)\" stroke=\"#eee\"/>"
            svg += "<text x=\"\(left - 6)\" y=\"\(y + 4)\" text-anchor=\"end\">\(String(format: "%g", ms))</text>\n"
        }
        svg += "<text x=\"\(left + plotW / 2)\" y=\"\(height - 10)\" text-anchor=\"middle\">percentile</text>\n"
        svg += "<text x=\"16\" y=\"\(top + plotH / 2)\" transform=\"rotate(-90 16 \(top + plotH / 2))\" text-anchor=\"middle\">latency (ms)</text>\n"
        for (i, s) in series.enumerated() {
            let color = colors[i % colors.count]
            if s.markersOnly {
                for (p, us) in s.points { svg += "<circle cx=\"\(px(p))\" cy=\"\(py(us))\" r=\"5\" fill=\"\(color)\"/>\n" }
            } else {
                let path = s.points.map { "\(px($0.0)),\(py($0.1))" }.joined(separator: " ")
                svg += "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\" points=\"\(path)\"/>\n"
            }
            svg += "<rect x=\"\(left + 12)\" y=\"\(top + 8 + Double(i) * 18)\" width=\"12\" height=\"12\" fill=\"\(color)\"/>"
            svg += "<text x=\"\(left + 30)\" y=\"\(top + 18 + Double(i) * 18)\">\(escape(s.label))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// A round step (1, 2 or 5 times a power of ten) and how many of it reach `maximum`,
    /// at most 8: the y axis's ticks (0, 2, 4, … ms rather than 0, 2.14, 4.28, …).
    static func ticks(upTo maximum: Double) -> (step: Double, count: Int) {
        let raw = maximum / 5
        let power = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { maximum / $0 <= 8 } ?? 10 * power
        return (step, max(1, Int(ceil(maximum / step))))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
