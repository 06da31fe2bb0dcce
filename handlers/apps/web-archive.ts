// A web build uploaded as a zip archive, read to serve its entries (serve-build.ts): the central directory says
// where each entry is; entries are stored or deflated (zlib). Archives are stored once and never change, so the
// recently read ones are kept in memory by storage key, up to CACHED_BYTES. ZIP64 archives are refused; encrypted
// entries and other methods are not served.
import { inflateRawSync } from 'node:zlib';
import type { Knex } from 'knex';
import { fileStorage } from '../../runtime/file-storage.js';

/** The largest archive read into memory; a larger web build is answered as unreadable. */
export const MAX_ARCHIVE_BYTES = 32 * 1024 * 1024;
/** The largest entry inflated (a small archive may claim a huge one). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** What the parsed archives kept in memory may hold together (the oldest read go first). */
const CACHED_BYTES = 64 * 1024 * 1024;

interface Entry { method: number; offset: number; compressedSize: number; size: number }

export class WebArchive {
  constructor(readonly bytes: Buffer, private readonly entries: Map<string, Entry>, private readonly root: string) {}

  /** The entry for a request path under the site ('' or a directory means its index.html); undefined when absent. */
  read(path: string): { name: string; bytes: Buffer } | undefined {
    const name = `${this.root}${path === '' || path.endsWith('/') ? `${path}index.html` : path}`;
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const at = entry.offset;
    if (this.bytes.readUInt32LE(at) !== 0x04034b50) throw new UnreadableArchive(`entry ${name} has no local header`);
    const start = at + 30 + this.bytes.readUInt16LE(at + 26) + this.bytes.readUInt16LE(at + 28);
    const data = this.bytes.subarray(start, start + entry.compressedSize);
    const bytes = entry.method === 0 ? data : inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
    if (bytes.length !== entry.size) throw new UnreadableArchive(`entry ${name} is not the size its directory says`);
    return { name, bytes };
  }
}

export class UnreadableArchive extends Error {}

export const isZip = (head: Buffer): boolean => head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;

/** Parses the central directory. An archive whose entries all sit in one folder is served from inside it. */
export function parseArchive(bytes: Buffer): WebArchive {
  const eocd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), Math.max(0, bytes.length - 22));
  if (eocd < 0 || eocd < bytes.length - 22 - 65535) throw new UnreadableArchive('no end of central directory');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw new UnreadableArchive('ZIP64 archives are not read');
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== 0x02014b50) throw new UnreadableArchive('a broken central directory');
    const flags = bytes.readUInt16LE(at + 8);
    const method = bytes.readUInt16LE(at + 10);
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const entry = { method, compressedSize: bytes.readUInt32LE(at + 20), size: bytes.readUInt32LE(at + 24), offset: bytes.readUInt32LE(at + 42) };
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    // Folders, encrypted entries, unknown methods and names climbing out of the site are simply not served.
    if (name.endsWith('/') || (flags & 1) || (method !== 0 && method !== 8) || entry.size > MAX_ENTRY_BYTES) continue;
    if (name.startsWith('/') || name.split('/').some((s) => s === '..' || s === '.') || name.includes('\\')) continue;
    if (entry.offset + 30 > bytes.length) throw new UnreadableArchive(`entry ${name} lies outside the archive`);
    entries.set(name, entry);
  }
  const names = [...entries.keys()];
  const folder = names[0]?.includes('/') ? names[0].slice(0, names[0].indexOf('/') + 1) : '';
  const root = !entries.has('index.html') && folder && names.every((n) => n.startsWith(folder)) ? folder : '';
  return new WebArchive(bytes, entries, root);
}

const cache = new Map<string, WebArchive>();

/** The archive stored under `storageKey` (size bytes), parsed once per process while it stays among the recent. */
export async function loadArchive(db: Knex, storageKey: string, size: number): Promise<WebArchive> {
  const cached = cache.get(storageKey);
  if (cached) {
    cache.delete(storageKey);
    cache.set(storageKey, cached);
    return cached;
  }
  if (size > MAX_ARCHIVE_BYTES) throw new UnreadableArchive(`larger than ${MAX_ARCHIVE_BYTES} bytes`);
  const chunks: Buffer[] = [];
  for await (const chunk of fileStorage(db).read(storageKey)) chunks.push(chunk as Buffer);
  const archive = parseArchive(Buffer.concat(chunks));
  cache.set(storageKey, archive);
  let held = 0;
  for (const kept of cache.values()) held += kept.bytes.length;
  for (const [key, kept] of cache) {
    if (held <= CACHED_BYTES || key === storageKey) break;
    cache.delete(key);
    held -= kept.bytes.length;
  }
  return archive;
}
