// In-process caches of what every request reads and rarely changes (credentials, account visibility, reference
// tables), kept correct across every process on the database: writes to the tables they mirror NOTIFY a topic
// (database triggers, migrations/140_cache_invalidation.ts), each process LISTENs and drops the topic's entries, and a
// short TTL is the safety net. Without a listener (the CLI, a server started without a database URL) or while it
// reconnects, nothing is cached: every read goes to the database.
import pg from 'pg';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Eventually } from './eventually.js';

export type Topic = 'credentials' | 'visibility' | 'reference';
export const TOPICS: readonly Topic[] = ['credentials', 'visibility', 'reference'];
export const CHANNEL = 'cache_invalidation';

const TTL_MS = Number(process.env.CACHE_TTL_MS ?? 10_000);
const MAX_ENTRIES = 10_000;

interface Entry {
  value: unknown;
  /** Date.now() past which the entry is not used */
  expires: number;
}

/** One topic's entries. Values loaded while an invalidation of the topic arrived are not kept (they may predate it).
 * A Map in insertion order, the oldest dropped when full: entries live TTL_MS at most, so recency adds little, and
 * lru-cache's bookkeeping on every read (status, staleness, reordering) cost ~8 µs of each request in a CPU
 * profile of `npm run bench`. */
export class TopicCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  constructor(private readonly live: () => boolean) {}

  private get(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.expires > Date.now()) return entry;
    this.entries.delete(key);
    return undefined;
  }

  private set(key: string, value: unknown): void {
    // Re-inserted, so that the Map's order stays the order of expiry.
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expires: Date.now() + TTL_MS });
  }

  /** The cached value, or the loader's, kept unless `keep` says not to (e.g. an unknown credential). A hit is
   * answered as it is, not in a promise: every request reads several entries, and a promise and its await per read
   * were most of what a hit cost. */
  load<V>(key: string, loader: () => Promise<V>, keep: (value: V) => boolean = () => true): Eventually<V> {
    if (!this.live()) return loader();
    const hit = this.get(key);
    if (hit) return hit.value as V;
    const before = this.generation;
    return loader().then((value) => {
      if (before === this.generation && this.live() && keep(value)) this.set(key, value);
      return value;
    });
  }

  /** Replaces a cached value the process itself changed (e.g. a key's last use), if it is still cached. */
  update<V>(key: string, change: (value: V) => V): void {
    // In place: an update does not extend the entry's life.
    const hit = this.get(key);
    if (hit) hit.value = change(hit.value as V);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

export class SharedCaches {
  private listening = false;
  readonly topics: Record<Topic, TopicCache>;
  constructor() {
    const live = () => this.listening;
    this.topics = { credentials: new TopicCache(live), visibility: new TopicCache(live), reference: new TopicCache(live) };
  }
  /** whether entries are kept: the listener is connected (until then every read goes to the database) */
  get live(): boolean {
    return this.listening;
  }
  setListening(on: boolean): void {
    this.listening = on;
    for (const t of TOPICS) this.topics[t].clear();
  }
  invalidate(payload: string): void {
    const topic = this.topics[payload as Topic];
    if (topic) topic.clear();
    else for (const t of TOPICS) this.topics[t].clear(); // an unknown payload: drop everything
  }
}

/** Caches by request pool (a test process serves many databases; a server, one). */
const byPool = new WeakMap<object, SharedCaches>();
const UNCACHED = new SharedCaches();

/** The caches of the pool `db` belongs to (a request's connection or transaction shares its pool's client);
 * caching nothing unless a listener runs for it. */
export function cachesFor(db: Knex): SharedCaches {
  // A knex transaction's client inherits from its pool's.
  for (let client: object | null = db.client as object; client; client = Object.getPrototypeOf(client)) {
    const found = byPool.get(client);
    if (found) return found;
  }
  return UNCACHED;
}

/**
 * Every pooled connection LISTENs too, so a change made on one is seen by its own process before the statement that
 * made it returns (PostgreSQL delivers a session's own notifications ahead of its ReadyForQuery): a key revoked
 * through this process is refused by it at once; other processes hear it through their listener.
 */
export function listenOnConnection(pool: () => Knex, connection: pg.Client): Promise<unknown> {
  connection.on('notification', (n) => {
    if (n.channel === CHANNEL) byPool.get(pool().client as object)?.invalidate(n.payload ?? '');
  });
  return connection.query(`LISTEN ${CHANNEL}`);
}

export interface CacheListener {
  stop(): Promise<void>;
}

/** Caches for the request pool `db`, kept by a listener on its database, which reconnects after a loss. */
export function startCacheListener(db: Knex, databaseUrl: string, logger?: Logger): CacheListener {
  const caches = new SharedCaches();
  byPool.set(db.client as object, caches);
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  const connect = async () => {
    if (stopped) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'cache-invalidation-listener' });
    client = c;
    const lost = (err?: Error) => {
      if (client !== c) return;
      client = null;
      caches.setListening(false);
      if (!stopped) {
        if (err) logger?.warn({ err: err.message }, 'cache invalidation listener lost; caching off until it reconnects');
        retry = setTimeout(() => void connect(), 1000);
        retry.unref();
      }
      c.end().catch(() => {});
    };
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (n) => caches.invalidate(n.payload ?? ''));
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANNEL}`);
      if (client === c && !stopped) caches.setListening(true);
    } catch (e) {
      lost(e as Error);
    }
  };
  void connect();

  return {
    async stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      caches.setListening(false);
      if (byPool.get(db.client as object) === caches) byPool.delete(db.client as object);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
