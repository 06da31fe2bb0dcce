// Written by hand, not declared plain: answers the open verification if there is one, and may put the ads agreement up for signature.
import type { Handler } from '../../generated/handler.js';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { resources } from '../../generated/resources.js';
import { loadPreferences, savePreferences } from '../account_preferences/index.js';
import { ADS_AGREEMENT_VERSION, initialRequirements } from './requirements.js';

/** POST /verifications: the account's open verification of that purpose, else a new one (the runtime checked
 * company:update on account_id). An ads agreement verification puts the agreement up for signature. */
export const createVerification: Handler<'createVerification'> = async ({ query, body }, ctx) => {
  const purpose = body.purpose ?? 'identity';
  const accountId = query.account_id;
  // The account row serialises concurrent starts for one account (the unique open index is the last guard).
  await ctx.db('accounts').where({ id: accountId }).forUpdate().first('id');
  const open = await ctx.db('verifications').where({ account_id: accountId, purpose })
    .whereIn('status', ['action_required', 'processing']).first();
  if (open) return resources.Verification.view(open);

  const kind = purpose === 'ads_agreement' ? 'individual' : body.kind ?? 'individual';
  if (purpose === 'ads_agreement') {
    if (body.kind === 'business') throw invalid('An ads agreement is signed by a person: kind must be individual', 'kind');
    const prefs = await loadPreferences(ctx.db, accountId);
    if (prefs.ads_agreement.status === 'signed') throw invalid(`The ads agreement of ${accountId} is already signed`, 'purpose');
    prefs.ads_agreement = { status: 'pending_signature', agreement_version: ADS_AGREEMENT_VERSION, printed_name: null, accepted_at: null };
    await savePreferences(ctx.db, accountId, prefs);
  }
  const [row] = await ctx.db('verifications').insert({
    id: newId('verf_'), account_id: accountId, purpose, kind, status: 'action_required',
    requested_information: JSON.stringify(initialRequirements(purpose === 'ads_agreement' ? 'ads_agreement' : kind)),
  }).returning('*');
  return resources.Verification.view(row);
};
