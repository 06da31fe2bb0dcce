// What the apps area asks of a build system: whether an uploaded build's attachment is the one its checksum names,
// and its reviewer's verdict on a checked build. The check_app_build and review_app_build jobs (build-jobs.ts) ask
// and apply the outcome themselves: the build's status, the app's logs, the event, the app's verification.
import type { Readable } from 'node:stream';
import { definePort } from '../../runtime/ports.js';

export interface BuildAttachment {
  platform: string;
  /** the SHA-256 the developer gave, lowercase hex */
  checksum: string;
  /** where the file storage (runtime/file-storage.ts) holds the attachment */
  storage_key: string;
  /** the attachment's bytes, from the file storage of the build's database */
  read(): Readable;
}

/** The finding in words: logged when the check passes; the review message when it fails. */
export type CheckOutcome = { passed: boolean; finding: string };

export type ReviewOutcome = { approved: true } | { approved: false; reason: string };

export interface BuildSystem {
  /** Throws when the attachment cannot be read: the job fails and is retried. */
  check(attachment: BuildAttachment): Promise<CheckOutcome>;
  review(build: { platform: string; supported_app_view_types: string[] }): Promise<ReviewOutcome>;
}

export const buildSystem = definePort<BuildSystem>('build system');
