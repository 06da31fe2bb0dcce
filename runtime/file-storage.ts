// Where file bytes live: one small interface, so that another store (an object store) can replace the local disk
// without touching the files and exports code. The local disk store keeps each object as one file under
// FILE_STORAGE_DIR (default .data/files); every write goes to a temporary file first and is renamed into place only
// when complete, so a refused or broken upload leaves nothing behind.
import { createReadStream, createWriteStream, mkdirSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
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
  read(key: string): Readable;
  size(key: string): Promise<number | null>;
  /** Removes the object; an absent one is fine. */
  remove(key: string): Promise<void>;
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
}

const storages = new Map<string, FileStorage>();

/** The store of this process (one per root, since tests point FILE_STORAGE_DIR elsewhere). */
export function fileStorage(): FileStorage {
  const root = storageRoot();
  let s = storages.get(root);
  if (!s) {
    s = new LocalDiskStorage(root);
    storages.set(root, s);
  }
  return s;
}
