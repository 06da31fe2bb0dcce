// POST /api/v2/memberships/{id}/validate_license: the v2 license check, as Current calls. The id may be the license
// key. A license is valid while its membership grants access; a hardware id sent as `metadata.hardware_id` is
// written to the membership's metadata on first use (PATCH /memberships/{id}), accepted again afterwards, and any
// other hardware id is refused with a 409.
import { ApiError, conflict, invalid } from '../../runtime/errors.js';
import type { V2Adapter } from '../../runtime/v2/route.js';
import { ACCESS_GRANTING_STATUSES } from '../members/index.js';

const MAX_HARDWARE_ID = 200;

function hardwareIdOf(body: Record<string, unknown> | undefined): string | undefined {
  for (const name of Object.keys(body ?? {})) {
    if (name !== 'metadata') throw invalid(`validate_license takes only metadata.hardware_id; ${name} is not accepted`, name);
  }
  const metadata = body?.metadata;
  if (metadata === undefined || metadata === null) return undefined;
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw invalid('metadata must be an object such as { "hardware_id": "..." }', 'metadata');
  for (const name of Object.keys(metadata)) {
    if (name !== 'hardware_id') throw invalid(`validate_license writes only metadata.hardware_id; metadata.${name} is not accepted`, `metadata.${name}`);
  }
  const id = (metadata as Record<string, unknown>).hardware_id;
  if (id === undefined) return undefined;
  if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_HARDWARE_ID) {
    throw invalid(`metadata.hardware_id must be a non-empty string of at most ${MAX_HARDWARE_ID} characters`, 'metadata.hardware_id');
  }
  return id;
}

export const validateLicense: V2Adapter = async ({ input, inTransaction }) => {
  const hardwareId = hardwareIdOf(input.body);
  return inTransaction(async (call, db) => {
    const found = await call('retrieveMembership', { path: { id: input.path.id } });
    if (!(ACCESS_GRANTING_STATUSES as readonly string[]).includes(found.status)) {
      throw new ApiError(400, 'invalid_state', `This license is not valid: its membership is ${found.status}; `
        + `a license is valid while its membership is ${ACCESS_GRANTING_STATUSES.join(', ')}`, 'status');
    }
    if (hardwareId === undefined) return found;
    // Two first uses at once must not both bind: hold the row until this transaction ends, then read it again.
    await db('memberships').where({ id: found.id }).forUpdate().first('id');
    const fresh = await call('retrieveMembership', { path: { id: found.id } });
    const bound = fresh.metadata?.hardware_id;
    if (bound === hardwareId) return fresh;
    if (bound !== undefined && bound !== null) {
      throw conflict('This license is already bound to another hardware id; a license works on the hardware that first used it', 'metadata.hardware_id');
    }
    return call('updateMembership', { path: { id: found.id }, body: { metadata: { hardware_id: hardwareId } } });
  });
};
