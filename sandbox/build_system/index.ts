// The sandbox build system: the check hashes the attachment's bytes against the build's checksum; the reviewer's rule
// is that a build must say where it shows (supported_app_view_types).
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { BuildSystem } from '../../handlers/apps/index.js';

async function sha256Of(bytes: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of bytes) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

export const sandboxBuildSystem: BuildSystem = {
  async check({ checksum, read }) {
    const actual = await sha256Of(read());
    return actual === checksum.toLowerCase()
      ? { passed: true, finding: 'the attachment\'s SHA-256 matches its checksum' }
      : { passed: false, finding: `The attachment's SHA-256 is ${actual}, not the checksum ${checksum}` };
  },
  async review({ supported_app_view_types }) {
    if (supported_app_view_types.length === 0) {
      return { approved: false, reason: 'The build declares no supported_app_view_types: say which views (hub, dashboard, ...) it serves' };
    }
    return { approved: true };
  },
};
