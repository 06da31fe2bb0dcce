// GET /metrics across the API processes of `npm start`. They share one port, so a scrape lands on any one of them;
// summing every process's counters (prom-client's AggregatorRegistry, over the cluster's IPC) makes each scrape the
// whole server's, whichever process answers it (the primary's side: bin/metrics-aggregator.ts). The answering process asks the primary, the primary asks every API
// process for its registry and sums them, and the answer goes back. Counters and histograms of a process that was
// replaced restart from zero, which Prometheus's rate() treats as a counter reset.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

export type MetricsMessage =
  | { type: 'metrics-gather'; id: string }
  | { type: 'metrics-gathered'; id: string; text?: string; error?: string };

const GATHER_TIMEOUT_MS = 5000;

/** In an API process: answers the primary's requests for this registry, and gathers every process's through it. */
export function gatherAcrossCluster(local: Registry): (registry: Registry) => Promise<string> {
  if (!cluster.isWorker || !process.send) return (registry) => registry.metrics();
  AggregatorRegistry.setRegistries([local]);
  new AggregatorRegistry(); // its constructor makes this process answer the primary's requests
  const waiting = new Map<string, (m: MetricsMessage & { type: 'metrics-gathered' }) => void>();
  process.on('message', (m: MetricsMessage) => {
    if (m?.type === 'metrics-gathered') waiting.get(m.id)?.(m);
  });
  return () => new Promise<string>((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary did not gather the API processes\' metrics in time'));
    }, GATHER_TIMEOUT_MS);
    waiting.set(id, (m) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (m.text !== undefined) resolve(m.text);
      else reject(new Error(m.error ?? 'gathering metrics failed'));
    });
    process.send!({ type: 'metrics-gather', id } satisfies MetricsMessage);
  });
}
