import type { Handler } from '../../generated/handler.js';
import { editEvidence } from './edit-evidence.js';

/** POST /disputes/{id}/update_evidence: the official client's form of PATCH /disputes/{id} (flat evidence fields). */
export const updateDisputeEvidence: Handler<'updateDisputeEvidence'> = async ({ path, body }, ctx) => editEvidence(ctx, path.id, body);
