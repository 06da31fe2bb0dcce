// The request counters of GET /metrics (runtime/request-counters.ts): plain numbers, exported in Prometheus's shape
// by prom-client's Registry (cumulative buckets with le, _sum, _count), and summed across processes by its
// AggregatorRegistry like prom-client's own metrics.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AggregatorRegistry, Registry } from 'prom-client';
import { LabelledCounter, LabelledHistogram } from '../../runtime/request-counters.js';

const t = suite('runtime: request counters');

function lines(text: string, prefix: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(prefix));
}

t('a histogram exports cumulative buckets, +Inf, the sum and the count per label set', async () => {
  const registry = new Registry();
  const h = new LabelledHistogram('took_seconds', 'How long', registry, [0.1, 1]);
  const a = h.cell('a', { operation: 'a' });
  for (const v of [0.05, 0.1, 0.5, 3]) a.observe(v);
  h.cell('b', { operation: 'b' }).observe(2);
  const text = await registry.metrics();
  assert.ok(text.includes('# TYPE took_seconds histogram'));
  assert.equal(lines(text, 'took_seconds_bucket{operation="a"'), [
    'took_seconds_bucket{operation="a",le="0.1"} 2', // bounds are inclusive, as Prometheus's le
    'took_seconds_bucket{operation="a",le="1"} 3',
    'took_seconds_bucket{operation="a",le="+Inf"} 4',
  ]);
  assert.equal(lines(text, 'took_seconds_sum{operation="a"}'), ['took_seconds_sum{operation="a"} 3.65']);
  assert.equal(lines(text, 'took_seconds_count'), ['took_seconds_count{operation="a"} 4', 'took_seconds_count{operation="b"} 1']);
  assert.equal(lines(text, 'took_seconds_bucket{operation="b",le="1"}'), ['took_seconds_bucket{operation="b",le="1"} 0']);
});

t('a counter counts per label set, one cell per key; reset empties it', async () => {
  const registry = new Registry();
  const c = new LabelledCounter('answered_total', 'Answered', registry);
  c.cell('x 2xx', { operation: 'x', status_class: '2xx' }).value++;
  c.cell('x 2xx', { operation: 'x', status_class: '2xx' }).value++;
  c.cell('x 4xx', { operation: 'x', status_class: '4xx' }).value++;
  assert.equal(lines(await registry.metrics(), 'answered_total{'), [
    'answered_total{operation="x",status_class="2xx"} 2',
    'answered_total{operation="x",status_class="4xx"} 1',
  ]);
  registry.resetMetrics();
  assert.equal(lines(await registry.metrics(), 'answered_total{'), []);
});

t('processes\' counters and histograms are summed by prom-client\'s aggregator', async () => {
  const processes = [1, 2].map((n) => {
    const registry = new Registry();
    new LabelledCounter('answered_total', 'Answered', registry).cell('x', { operation: 'x' }).value += n;
    new LabelledHistogram('took_seconds', 'How long', registry, [1]).cell('x', { operation: 'x' }).observe(n / 2);
    return registry;
  });
  const merged = AggregatorRegistry.aggregate(await Promise.all(processes.map((r) => r.getMetricsAsJSON())));
  const text = await merged.metrics();
  assert.equal(lines(text, 'answered_total{'), ['answered_total{operation="x"} 3']);
  assert.equal(lines(text, 'took_seconds_bucket'), ['took_seconds_bucket{operation="x",le="1"} 2', 'took_seconds_bucket{operation="x",le="+Inf"} 2']);
  assert.equal(lines(text, 'took_seconds_sum'), ['took_seconds_sum{operation="x"} 1.5']);
});

t.run();
