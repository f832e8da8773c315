import CoreMetrics
import Metrics
import Prometheus

/// The server's measures for `GET /metrics` (server.md §1), through swift-metrics into swift-prometheus's
/// registry: requests by route and status, request latency, commit group sizes and their latency, the
/// head's seq and the open event streams. A route's pattern is its label, never a user or an id.
///
/// The commit measures count the groups of writes (`Store.groupCommits`): a sign-in's attempt commits in a
/// transaction of its own, and `--commit-each` makes no groups, so neither counts there. They are made when the
/// server starts, so that `/metrics` shows them (at zero) before the first commit.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let groupSize: Recorder
    private let commitDuration: Metrics.Timer

    init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.valueHistogramBuckets["veritrail_commit_group_size"] = [1, 2, 4, 8, 16, 32, 64, 128, 256]
        MetricsSystem.bootstrap(factory)
        groupSize = Recorder(label: "veritrail_commit_group_size", aggregate: true)
        commitDuration = Metrics.Timer(label: "veritrail_commit_duration_seconds")
    }

    func request(route: String, method: String, status: Int, nanoseconds: Int64) {
        Counter(label: "veritrail_http_requests_total", dimensions: [("route", route), ("method", method), ("status", String(status))])
            .increment()
        Metrics.Timer(label: "veritrail_http_request_duration_seconds", dimensions: [("route", route)]).recordNanoseconds(nanoseconds)
    }

    func commit(size: Int, microseconds: Int64) {
        groupSize.record(size)
        commitDuration.recordMicroseconds(microseconds)
    }

    /// The Prometheus text of every measure, with the head and the open streams as they are now.
    func text(head: UInt64, streams: Int) -> [UInt8] {
        Gauge(label: "veritrail_head_seq").record(Double(head))
        Gauge(label: "veritrail_open_event_streams").record(Double(streams))
        return registry.emitToBuffer()
    }
}
