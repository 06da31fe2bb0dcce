// Where file bytes live: one small interface, so that the files, exports, media and apps code never knows which store
// holds them. Three stores implement it, chosen by FILE_STORAGE at composition (wiring/file-storage-setting.ts):
// PostgreSQL (the default, runtime/file-storage-postgres.ts: every host serving the database shares it, no other
// service), S3-compatible object storage (runtime/file-storage-s3.ts) and the local disk (below: one host only, for
// development). Every store makes an object visible only once complete, so a refused or broken upload leaves nothing.
//
// The local disk store keeps each object as one file under FILE_STORAGE_DIR (default .data/files); every write goes
// to a temporary file first and is renamed into place only when complete.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from './ids.js';
import { projectRoot } from './project-root.js';

/** Thrown by put() when the bytes exceed its limit; nothing was stored. */
export class StorageLimitExceeded extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

export interface FileStorage {
  /** Streams the source into `key`, replacing what was there; refuses past `limit` bytes (StorageLimitExceeded),
   * leaving nothing. Resolves to the byte count. */
  put(key: string, source: Readable | AsyncIterable<Buffer | string>, limit: number): Promise<number>;
  /** Writes the concatenation of `parts`, in order, into `key`; the byte count. */
  concat(parts: string[], key: string): Promise<number>;
  /** The object's bytes; a missing object errors the stream with code 'ENOENT' (as the local disk does). */
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  /** Removes the object; an absent one is fine. */
  remove(key: string): Promise<void>;
  /** Every complete object's key, sorted (tests check that nothing is left behind). */
  list(): Promise<string[]>;
}

/** The error read() streams for a missing object, in every store: code 'ENOENT', as node's file system says it. */
export function missingObject(key: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`no stored object '${key}'`), { code: 'ENOENT' });
}

/** The directory the local store writes in: FILE_STORAGE_DIR (tests use a temporary one), else .data/files. */
export const storageRoot = (): string => process.env.FILE_STORAGE_DIR ?? join(projectRoot, '.data', 'files');

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export class LocalDiskStorage implements FileStorage {
  constructor(private readonly root: string) {
    mkdirSync(root, { recursive: true });
  }

  private path(key: string): string {
    // Keys are made by the code (ids and random tokens), never taken from a caller; this keeps it that way.
    if (!SAFE_KEY.test(key)) throw new Error(`unsafe storage key '${key}'`);
    return join(this.root, key);
  }

  async put(key: string, source: Readable | AsyncIterable<Buffer | string>, limit: number): Promise<number> {
    const target = this.path(key);
    const temporary = `${target}.${randomToken(8)}.tmp`;
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? new StorageLimitExceeded(limit) : null, chunk);
      },
    });
    try {
      await pipeline(source, counter, createWriteStream(temporary));
      await rename(temporary, target);
      return bytes;
    } catch (e) {
      await rm(temporary, { force: true });
      throw e;
    }
  }

  async concat(parts: string[], key: string): Promise<number> {
    const paths = parts.map((p) => this.path(p));
    async function* chunks() {
      for (const p of paths) yield* createReadStream(p);
    }
    return this.put(key, chunks(), Number.MAX_SAFE_INTEGER);
  }

  read(key: string): Readable {
    return createReadStream(this.path(key));
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await stat(this.path(key))).size;
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  async list(): Promise<string[]> {
    // Temporary files (being written) and the signing secret (runtime/signed-urls.ts) are no objects.
    return (await readdir(this.root)).filter((f) => SAFE_KEY.test(f) && !f.endsWith('.tmp')).sort();
  }
}

const disks = new Map<string, LocalDiskStorage>();

/** The local disk store under FILE_STORAGE_DIR as it is now (tests point it elsewhere while the process runs). */
export function localDiskStorage(): FileStorage {
  const root = storageRoot();
  let s = disks.get(root);
  if (!s) {
    s = new LocalDiskStorage(root);
    disks.set(root, s);
  }
  return s;
}

/** How the composition root (wiring/) says which store serves a database's files: the PostgreSQL store needs the
 * database `db` belongs to; the others ignore it. */
export type FileStorageChoice = (db: Knex) => FileStorage;

let chosen: FileStorageChoice | undefined;

export function useFileStorage(choice: FileStorageChoice): void {
  chosen = choice;
}

/** The store holding the files of `db`'s database (a request's connection or transaction will do: the store only
 * reads which database it is, and works on connections of its own). */
export function fileStorage(db: Knex): FileStorage {
  if (!chosen) throw new Error('No file storage chosen: the process must be composed first (wiring/compose.ts)');
  return chosen(db);
}
