// Version: the operation as it is at the caller's version. Retired operations answer 410 from their `since` on;
// where the operation does not exist at the version, null (another route may serve the path there).
import { ApiError } from '../errors.js';
import type { OperationDefinition, VersionedInput } from '../operation.js';
import { api } from '../api-definition.js';

/** `method` and `path` are the request's, as the 410 names them. */
export function operationAtVersion(op: OperationDefinition, version: string, method: string, path: string): VersionedInput | null {
  if (op.gone && version >= op.gone.since) {
    const successor = op.gone.successor ? `; use ${api().spec.basePath}${op.gone.successor}` : '';
    throw new ApiError(410, 'gone', `${method} ${path} is gone as of API version ${op.gone.since}${successor}`);
  }
  const at = op.versions[version];
  return at && op.handler ? at : null;
}
