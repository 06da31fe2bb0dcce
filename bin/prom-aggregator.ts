// prom-client's AggregatorRegistry, in a module of its own so that the primary loads prom-client on the first scrape
// (bin/metrics-aggregator.ts) through a static import. A dynamic `import('prom-client')` would not do: in the bundle
// (bin/build.mjs, esbuild with code splitting) a CommonJS package imported dynamically becomes a chunk whose only
// export is `default`, so its named exports are undefined there though present under tsx.
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';

/** A registry whose clusterMetrics() sums the registries of every cluster worker. */
export function clusterAggregator(): AggregatorRegistry<PrometheusContentType> {
  return new AggregatorRegistry();
}
