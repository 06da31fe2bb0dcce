// The primary's side of GET /metrics across the API processes (bin/cluster-metrics.ts): it sums every process's
// registry when one of them asks. prom-client is loaded on the first scrape, not at start: the primary only
// supervises, and most of its start-up is spent loading modules.
import type { Worker } from 'node:cluster';
import type { MetricsMessage } from './cluster-metrics.js';

/** In the primary: answers an API process's request with the sum over every API process. */
export function answerMetricsRequests(): (child: Worker, message: unknown) => boolean {
  let aggregator: Promise<{ clusterMetrics(): Promise<string> }> | undefined;
  return (child, message) => {
    const m = message as MetricsMessage;
    if (m?.type !== 'metrics-gather') return false;
    const reply = (answer: Omit<MetricsMessage & { type: 'metrics-gathered' }, 'type' | 'id'>) => {
      if (child.isConnected()) child.send({ type: 'metrics-gathered', id: m.id, ...answer } satisfies MetricsMessage);
    };
    aggregator ??= import('./prom-aggregator.js').then(({ clusterAggregator }) => clusterAggregator());
    aggregator.then((a) => a.clusterMetrics()).then((text) => reply({ text }), (e: Error) => reply({ error: e.message }));
    return true;
  };
}
