// The S3 file store (FILE_STORAGE=s3): objects in a bucket of Amazon S3 or any S3-compatible object storage (MinIO,
// Ceph, R2...), shared by every host. An upload streams through @aws-sdk/lib-storage's Upload (multipart past 5 MiB,
// a few parts in memory at most, aborted on failure), so an object appears whole or not at all. concat() has the
// server copy the parts (UploadPartCopy) when S3's part sizes allow it (and the server implements it), and streams
// them through otherwise.
//
// The AWS SDK is loaded on first use: a process on another store never pays its start-up cost.
import type { S3Client } from '@aws-sdk/client-s3';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { missingObject, StorageLimitExceeded, type FileStorage } from './file-storage.js';

export interface S3Settings {
  bucket: string;
  /** another S3-compatible service's URL; unset, AWS's endpoint for the region */
  endpoint?: string;
  region: string;
  /** unset: the SDK's own chain (environment, shared files, instance role) */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (`<endpoint>/<bucket>/<key>`), as most S3-compatible servers want */
  forcePathStyle: boolean;
  /** prepended to every key, so that one bucket can hold several installations' objects */
  prefix: string;
}

/** The settings of the S3 store from the environment; a missing or malformed one stops the process at start. */
export function s3SettingsFrom(env: NodeJS.ProcessEnv): S3Settings {
  const bucket = env.S3_BUCKET;
  if (!bucket) throw new Error('FILE_STORAGE=s3 needs S3_BUCKET (and S3_ENDPOINT for a service other than AWS)');
  const accessKeyId = env.S3_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY;
  if (!accessKeyId !== !secretAccessKey) throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  const pathStyle = env.S3_FORCE_PATH_STYLE ?? 'false';
  if (pathStyle !== 'true' && pathStyle !== 'false') throw new Error(`S3_FORCE_PATH_STYLE=${pathStyle}: use true or false`);
  return {
    bucket, endpoint: env.S3_ENDPOINT || undefined, region: env.S3_REGION || 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: pathStyle === 'true', prefix: env.S3_KEY_PREFIX ?? '',
  };
}

/** S3's multipart rules: every part but the last at least 5 MiB, at most 5 GiB, and at most 10,000 parts. */
const MIN_PART = 5 * 1024 * 1024;
const MAX_PART = 5 * 1024 * 1024 * 1024;
const MAX_PARTS = 10_000;
/** Upload's part size and how many parts it sends at once: what a put holds in memory at most. */
const UPLOAD_PART = 8 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

type Source = Readable | AsyncIterable<Buffer | string>;
const notFound = (e: unknown) => {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
};

export class S3Storage implements FileStorage {
  private client?: Promise<S3Client>;

  constructor(private readonly settings: S3Settings) {}

  private s3(): Promise<S3Client> {
    this.client ??= import('@aws-sdk/client-s3').then(({ S3Client }) => new S3Client({
      region: this.settings.region, endpoint: this.settings.endpoint, forcePathStyle: this.settings.forcePathStyle,
      credentials: this.settings.credentials,
      // Checksums only where S3 requires them: the SDK's default (a CRC trailer on every upload, aws-chunked) is
      // refused by several S3-compatible servers.
      requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
    }));
    return this.client;
  }

  private key(key: string): string {
    return this.settings.prefix + key;
  }

  private async send(command: unknown): Promise<any> {
    return (await this.s3()).send(command as never);
  }

  async put(key: string, source: Source, limit: number): Promise<number> {
    const [{ Upload }, client] = await Promise.all([import('@aws-sdk/lib-storage'), this.s3()]);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        bytes += chunk.length;
        done(bytes > limit ? new StorageLimitExceeded(limit) : null, chunk);
      },
    });
    const upload = new Upload({
      client, params: { Bucket: this.settings.bucket, Key: this.key(key), Body: counter },
      partSize: UPLOAD_PART, queueSize: UPLOAD_QUEUE, leavePartsOnError: false,
    });
    // An upload that fails stops reading: the source must stop too, not wait for a reader forever.
    const uploading = upload.done().catch((e: unknown) => {
      counter.destroy(e as Error);
      throw e;
    });
    const [piped, uploaded] = await Promise.allSettled([pipeline(source, counter), uploading]);
    if (piped.status === 'rejected') {
      // Past the limit, Upload saw its body fail and aborted: nothing was stored. Made sure of, in case it had finished.
      if (uploaded.status === 'fulfilled') await this.remove(key);
      throw piped.reason;
    }
    if (uploaded.status === 'rejected') throw uploaded.reason;
    return bytes;
  }

  async concat(parts: string[], key: string): Promise<number> {
    const sizes: number[] = [];
    for (const part of parts) {
      const size = await this.size(part);
      if (size === null) throw missingObject(part);
      sizes.push(size);
    }
    const copyable = parts.length > 0 && parts.length <= MAX_PARTS && sizes.every((s, i) => s <= MAX_PART && (i === sizes.length - 1 || s >= MIN_PART));
    // Some S3-compatible servers lack UploadPartCopy (501 NotImplemented): the bytes are then streamed through.
    const copied = copyable && await this.copyParts(parts, key).then(() => true, (e: { name?: string }) => {
      if (e.name === 'NotImplemented') return false;
      throw e;
    });
    if (!copied) {
      const read = (part: string) => this.read(part);
      await this.put(key, (async function* () { for (const part of parts) yield* read(part); })(), Number.MAX_SAFE_INTEGER);
    }
    return sizes.reduce((a, b) => a + b, 0);
  }

  /** The parts copied into one multipart upload by the server: no byte passes through this process. */
  private async copyParts(parts: string[], key: string): Promise<void> {
    const { CreateMultipartUploadCommand, UploadPartCopyCommand, CompleteMultipartUploadCommand, AbortMultipartUploadCommand } =
      await import('@aws-sdk/client-s3');
    const Bucket = this.settings.bucket;
    const Key = this.key(key);
    const { UploadId } = await this.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    try {
      const copied = [];
      for (const [i, part] of parts.entries()) {
        const { CopyPartResult } = await this.send(new UploadPartCopyCommand({
          Bucket, Key, UploadId, PartNumber: i + 1, CopySource: `${Bucket}/${encodeURIComponent(this.key(part))}`,
        }));
        copied.push({ PartNumber: i + 1, ETag: CopyPartResult?.ETag });
      }
      await this.send(new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts: copied } }));
    } catch (e) {
      await this.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId })).catch(() => {});
      throw e;
    }
  }

  read(key: string): Readable {
    const storage = this;
    return Readable.from((async function* () {
      const { GetObjectCommand } = await import('@aws-sdk/client-s3');
      let body: Readable;
      try {
        body = (await storage.send(new GetObjectCommand({ Bucket: storage.settings.bucket, Key: storage.key(key) }))).Body as Readable;
      } catch (e) {
        throw notFound(e) ? missingObject(key) : e;
      }
      yield* body;
    })(), { objectMode: false });
  }

  async size(key: string): Promise<number | null> {
    const { HeadObjectCommand } = await import('@aws-sdk/client-s3');
    try {
      return Number((await this.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }))).ContentLength);
    } catch (e) {
      if (notFound(e)) return null;
      throw e;
    }
  }

  async remove(key: string): Promise<void> {
    const { DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    await this.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(key) }));
  }

  async list(): Promise<string[]> {
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await this.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: this.settings.prefix, ContinuationToken }));
      for (const o of page.Contents ?? []) keys.push(String(o.Key).slice(this.settings.prefix.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }
}
