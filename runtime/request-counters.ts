// The per-request counters of GET /metrics, kept as plain numbers and turned into prom-client's shape only when
// scraped. prom-client's own Counter and Histogram hash the label set on every call, children included, and the
// histogram looks each bucket up by its bound converted to a property name: ~10 µs of every request under
// `npm run bench` (CPU profile of GET /payments/{id}). These only add; a Registry takes them as metrics (it asks
// `get()`), and the cluster's AggregatorRegistry sums them like prom-client's own (`aggregator: 'sum'`).
import type { Registry } from 'prom-client';

type Labels = Record<string, string>;

interface MetricValue {
  labels: Labels;
  value: number;
  metricName?: string;
}

abstract class ScrapedMetric<Cell> {
  readonly aggregator = 'sum';
  protected readonly cells = new Map<string, Cell>();
  constructor(readonly name: string, readonly help: string, registry: Registry) {
    registry.registerMetric(this as never);
  }

  abstract readonly type: 'counter' | 'histogram';
  protected abstract values(): MetricValue[];

  async get() {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.values() };
  }

  reset(): void {
    this.cells.clear();
  }
}

/** A count per label set; `cell` finds a label set's count once, callers keep it (bounded by what labels there are). */
export class LabelledCounter extends ScrapedMetric<{ labels: Labels; value: number }> {
  readonly type = 'counter';

  cell(key: string, labels: Labels): { value: number } {
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { labels, value: 0 }));
    return cell;
  }

  protected values(): MetricValue[] {
    return [...this.cells.values()].map(({ labels, value }) => ({ labels, value }));
  }
}

interface HistogramCell {
  labels: Labels;
  /** observations per bucket, not cumulative; the last counts those above every bound */
  buckets: number[];
  sum: number;
  count: number;
}

/** Observations per label set in fixed buckets, exported cumulatively with `le`, `_sum` and `_count` as Prometheus reads. */
export class LabelledHistogram extends ScrapedMetric<HistogramCell> {
  readonly type = 'histogram';
  constructor(name: string, help: string, registry: Registry, private readonly bounds: readonly number[]) {
    super(name, help, registry);
  }

  cell(key: string, labels: Labels): { observe(value: number): void } {
    let cell = this.cells.get(key);
    if (!cell) this.cells.set(key, (cell = { labels, buckets: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 }));
    const { bounds } = this;
    const found = cell;
    return {
      observe(value: number) {
        let i = 0;
        while (i < bounds.length && value > bounds[i]) i++;
        found.buckets[i]++;
        found.sum += value;
        found.count++;
      },
    };
  }

  protected values(): MetricValue[] {
    const bucket = `${this.name}_bucket`;
    return [...this.cells.values()].flatMap(({ labels, buckets, sum, count }) => {
      let below = 0;
      return [
        ...this.bounds.map((le, i) => ({ labels: { ...labels, le: String(le) }, value: (below += buckets[i]), metricName: bucket })),
        { labels: { ...labels, le: '+Inf' }, value: count, metricName: bucket },
        { labels, value: sum, metricName: `${this.name}_sum` },
        { labels, value: count, metricName: `${this.name}_count` },
      ];
    });
  }
}
