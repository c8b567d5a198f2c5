import Hummingbird
import Metrics
import Prometheus

/// The host's metrics in Prometheus's text format at `GET /metrics`: every swift-metrics
/// counter, timer and meter made in this process after `bootstrap`.
public enum MetricsEndpoint {
    /// Sends swift-metrics to a new Prometheus registry and serves it on `router`. Call once,
    /// before the host makes its metrics.
    public static func bootstrap<Context: RequestContext>(on router: Router<Context>) {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // Request latencies: from 100 µs (a handle answered at once) to 10 s (the default timeout).
        factory.defaultDurationHistogramBuckets = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
            .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
            .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(5), .seconds(10),
        ]
        MetricsSystem.bootstrap(factory)
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
    }
}
