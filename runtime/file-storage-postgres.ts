// The PostgreSQL file store (FILE_STORAGE=postgres, the default): every host serving the database reads the same
// bytes, and no other service is needed. An object is a stored_objects row and its bytes as stored_object_chunks rows
// of up to CHUNK_BYTES (migrations/600_stored_objects.ts), so put() and read() hold one chunk at a time whatever the
// object's size (a million-row export is hundreds of MB).
//
// The store works on a small pool of its own, never on a request's connection or transaction, as the local disk
// store is independent of them: the bytes are stored before the row that names them commits, and the callers already
// handle that order (a rolled-back write removes its object; objects a committed write no longer needs are removed by
// a job queued in its transaction, handlers/files/file-objects.ts). Its own pool also means a request holding the
// main pool's connection never waits for another connection of that pool, which many uploads at once would exhaust.
import type { Knex } from 'knex';
import pg from 'pg';
import { Readable } from 'node:stream';
import { missingObject, StorageLimitExceeded, type FileStorage } from './file-storage.js';

/** 64 KiB: each insert's message is small (pg builds every one in a buffer of its own, garbage outside V8's heap: a
 * million-row export's worker peaked at 161 MB with 1 MiB chunks, 156 with 256 KiB, 151 with 64 KiB, 145–147 with
 * 64 KiB and 500-row batches; `BENCH_ONLY=export npm run bench`). Reads take READ_CHUNKS at a time. */
export const CHUNK_BYTES = 64 * 1024;
/** Chunks per read: 1 MiB a round trip, as many in memory. */
const READ_CHUNKS = 16;
/** Connections per database: each statement borrows one, so uploads and downloads interleave on a few. */
const POOL_SIZE = 4;
/** A write whose process died leaves a keyless object; after this it is surely abandoned, and swept. */
const ABANDONED_AFTER = '1 day';
const SWEEP_EVERY_MS = 60 * 60 * 1000;

type Source = Readable | AsyncIterable<Buffer | string>;
const INSERT_CHUNK = 'insert into stored_object_chunks (object_id, seq, bytes) values ($1, $2, $3)';
const READ_CHUNKS_FROM = 'select bytes from stored_object_chunks where object_id = $1 and seq >= $2 and seq < $3 order by seq';

/**
 * The source's bytes in pieces of CHUNK_BYTES (the last one shorter), whatever sizes it arrives in, all in one buffer:
 * each piece is inserted (pg copies it into its message) before the next is filled. A fresh buffer per chunk was
 * garbage outside V8's heap, freed only as collections came (with 1 MiB chunks a full bench's export worker peaked
 * at 171 MB; the same chunks from one buffer, 161).
 */
async function* chunksOf(source: Source, size = CHUNK_BYTES): AsyncGenerator<Buffer> {
  const chunk = Buffer.allocUnsafe(size);
  let filled = 0;
  for await (const piece of source) {
    let bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    while (bytes.length) {
      const copied = bytes.copy(chunk, filled, 0, Math.min(bytes.length, size - filled));
      filled += copied;
      bytes = bytes.subarray(copied);
      if (filled === size) {
        yield chunk;
        filled = 0;
      }
    }
  }
  if (filled) yield chunk.subarray(0, filled);
}

export class PostgresStorage implements FileStorage {
  private lastSweep = 0;

  constructor(private readonly pool: pg.Pool) {}

  async put(key: string, source: Source, limit: number): Promise<number> {
    this.sweepAbandoned();
    const id = await this.newObject();
    let size = 0;
    let seq = 0;
    try {
      for await (const chunk of chunksOf(source)) {
        size += chunk.length;
        if (size > limit) throw new StorageLimitExceeded(limit);
        // Each chunk commits alone: no transaction stays open while a slow client uploads. The object stays keyless
        // (invisible) until complete() names it. Prepared once per connection (a million-row export is ~13,000 chunks).
        await this.pool.query({ name: 'stored_object_chunk', text: INSERT_CHUNK, values: [id, seq++, chunk] });
      }
      await this.transaction((client) => this.complete(client, id, key, size, seq));
      return size;
    } catch (e) {
      await this.discard(id);
      throw e;
    }
  }

  /** The parts' chunks are copied by the server, statement by statement: no byte goes through this process. */
  async concat(parts: string[], key: string): Promise<number> {
    const id = await this.newObject();
    try {
      return await this.transaction(async (client) => {
        // Shared locks: a part removed while it is copied would make a short object.
        const { rows } = await client.query<{ id: string; key: string; size: number; chunk_count: number }>(
          'select id, key, size, chunk_count from stored_objects where key = any($1::text[]) for share', [parts]);
        const byKey = new Map(rows.map((r) => [r.key, r]));
        let size = 0;
        let seq = 0;
        for (const part of parts) {
          const found = byKey.get(part);
          if (!found) throw missingObject(part);
          await client.query(`insert into stored_object_chunks (object_id, seq, bytes)
            select $1, seq + $2, bytes from stored_object_chunks where object_id = $3`, [id, seq, found.id]);
          size += Number(found.size);
          seq += found.chunk_count;
        }
        await this.complete(client, id, key, size, seq);
        return size;
      });
    } catch (e) {
      await this.discard(id);
      throw e;
    }
  }

  read(key: string): Readable {
    const pool = this.pool;
    return Readable.from((async function* () {
      const { rows: [object] } = await pool.query<{ id: string; chunk_count: number }>(
        'select id, chunk_count from stored_objects where key = $1', [key]);
      if (!object) throw missingObject(key);
      for (let first = 0; first < object.chunk_count; first += READ_CHUNKS) {
        const wanted = Math.min(READ_CHUNKS, object.chunk_count - first);
        const { rows } = await pool.query<{ bytes: Buffer }>({ name: 'stored_object_chunks_read', text: READ_CHUNKS_FROM,
          values: [object.id, first, first + wanted] });
        if (rows.length !== wanted) throw Object.assign(new Error(`stored object '${key}' was removed while being read`), { code: 'ENOENT' });
        for (const chunk of rows) yield chunk.bytes;
      }
    })(), { objectMode: false });
  }

  async size(key: string): Promise<number | null> {
    const { rows: [row] } = await this.pool.query<{ size: string }>('select size from stored_objects where key = $1', [key]);
    return row ? Number(row.size) : null;
  }

  async remove(key: string): Promise<void> {
    await this.pool.query('delete from stored_objects where key = $1', [key]);
  }

  async list(): Promise<string[]> {
    const { rows } = await this.pool.query<{ key: string }>('select key from stored_objects where key is not null order by key collate "C"');
    return rows.map((r) => r.key);
  }

  private async newObject(): Promise<string> {
    const { rows: [row] } = await this.pool.query<{ id: string }>('insert into stored_objects default values returning id');
    return row.id;
  }

  /** Names the written object `key`, replacing what had that key: visible all at once, or not at all. */
  private async complete(client: pg.PoolClient, id: string, key: string, size: number, chunks: number): Promise<void> {
    // Two writers of one key take turns, so the second replaces the first instead of failing on the unique key.
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`stored_objects:${key}`]);
    await client.query('delete from stored_objects where key = $1', [key]);
    await client.query('update stored_objects set key = $2, size = $3, chunk_count = $4 where id = $1', [id, key, size, chunks]);
  }

  private async discard(id: string): Promise<void> {
    await this.pool.query('delete from stored_objects where id = $1', [id]).catch(() => {});
  }

  private async transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work(client);
      await client.query('commit');
      return result;
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  /** Keyless objects of writers that died mid-write, at most hourly per process, in the background of a put. */
  private sweepAbandoned(): void {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    this.pool.query(`delete from stored_objects where key is null and created_at < now() - interval '${ABANDONED_AFTER}'`).catch(() => {});
  }
}

/** The connection string of the database `db` (a knex made by runtime/db.ts createKnex, or one of its transactions). */
function databaseUrlOf(db: Knex): string {
  const connection = (db.client as { config?: { connection?: unknown } }).config?.connection;
  const url = typeof connection === 'string' ? connection : (connection as { connectionString?: string } | undefined)?.connectionString;
  if (!url) throw new Error('The PostgreSQL file store needs a database given by connection string');
  return url;
}

const stores = new Map<string, PostgresStorage>();

/** The store in `db`'s database, one pool per database per process (tests run many databases in one process). */
export function postgresStorageFor(db: Knex): FileStorage {
  const url = databaseUrlOf(db);
  let store = stores.get(url);
  if (!store) {
    // Idle connections close soon and never keep the process alive: a CLI command or a test file ends as before.
    const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, idleTimeoutMillis: 5000, allowExitOnIdle: true });
    // An idle connection lost (the server restarted, a test's database dropped): the pool opens another when asked.
    pool.on('error', () => {});
    store = new PostgresStorage(pool);
    stores.set(url, store);
  }
  return store;
}
