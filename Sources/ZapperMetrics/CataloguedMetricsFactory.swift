import CoreMetrics
import Prometheus

/// swift-metrics' factory over a swift-prometheus registry, with each metric's help text and
/// buckets taken from `MetricCatalogue` (the registry's own factory writes no `# HELP`, which
/// `promtool check metrics` rejects). A name the catalogue lacks is a programming error.
public struct CataloguedMetricsFactory: MetricsFactory {
    public let registry: PrometheusCollectorRegistry

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    private func described(_ label: String) -> MetricDescription {
        guard let description = MetricCatalogue.byName[label] else {
            preconditionFailure("\(label) is not in MetricCatalogue")
        }
        return description
    }

    /// The registry's name for the metric: the whole name (its unit is already part of it) and its help.
    private func descriptor(_ description: MetricDescription) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: description.name, unitName: "", helpText: description.help)
    }

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(described(label)), labels: dimensions)
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(described(label)), labels: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        let description = described(label)
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(description), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(description), labels: dimensions, buckets: description.buckets)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(described(label)), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        let description = described(label)
        let buckets = description.buckets.map { Duration.nanoseconds(Int64(($0 * 1e9).rounded())) }
        return registry.makeDurationHistogram(descriptor: descriptor(description), labels: dimensions, buckets: buckets)
    }

    public func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    public func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    public func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    public func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? DurationHistogram { registry.unregisterDurationHistogram(histogram) }
    }
}
