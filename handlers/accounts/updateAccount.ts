import type { Handler, HandlerContext } from '../../generated/handler.js';
import { checkChallengeAllowed } from '../shared/three-d-secure.js';
import type { UpdateAccountInput } from '../../generated/types.js';
import { notFound } from '../../runtime/errors.js';
import { duplicateExternalId, externalIdOf, isUniqueViolation, EXTERNAL_ID_CONSTRAINT } from './account-service.js';
import { mergeMetadata } from '../../runtime/metadata.js';
import { checkCategory } from './business-categories.js';
import { accountViews, loadAccountView, viewOptions, type AccountRow } from './account-view.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { normaliseOrigins } from '../../runtime/cors.js';

type Body = UpdateAccountInput['body'];

/** Body fields stored in a column of the same name, as-is. */
const PLAIN = ['title', 'email', 'logo_url', 'country', 'send_customer_emails', 'three_d_secure_policy', 'tax_remitted_by',
  'tax_type', 'product_tax_code_id', 'business_type', 'industry_type'] as const;

/** Column changes for the sent fields that differ from what is stored. */
function changes(row: AccountRow, body: Body): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of PLAIN) {
    if (body[field] !== undefined && body[field] !== row[field]) out[field] = body[field];
  }
  const asJson = (v: unknown) => JSON.stringify(v);
  if (body.business_address !== undefined && asJson(body.business_address) !== asJson(row.business_address)) {
    out.business_address = body.business_address === null ? null : asJson(body.business_address);
  }
  if (body.tax_identifiers !== undefined && asJson(body.tax_identifiers) !== asJson(row.tax_identifiers)) {
    out.tax_identifiers = asJson(body.tax_identifiers);
  }
  if (body.allowed_origins !== undefined) {
    const origins = normaliseOrigins(body.allowed_origins);
    if (asJson(origins) !== asJson(row.allowed_origins)) out.allowed_origins = origins;
  }
  if (body.metadata !== undefined) {
    const merged = mergeMetadata(row.metadata, body.metadata);
    if (asJson(merged) !== asJson(row.metadata)) {
      out.metadata = asJson(merged);
      out.external_id = externalIdOf(merged);
    }
  }
  return out;
}

async function checkExternalIdFree(ctx: HandlerContext, row: AccountRow, externalId: string | null): Promise<void> {
  if (!externalId || !row.parent_id) return;
  const sibling = await ctx.db('accounts').where({ parent_id: row.parent_id, external_id: externalId })
    .whereNot('id', row.id).first('id');
  if (sibling) throw duplicateExternalId(externalId, sibling.id);
}

/** PATCH /accounts/{id}: the runtime has already checked the account is visible and company:update is held. */
export const updateAccount: Handler<'updateAccount'> = async ({ path, body }, ctx) => {
  // Locked so concurrent updates merge metadata onto each other's result instead of losing keys.
  const row = await readRow(ctx.db, resources.Account, path.id, 'lock');
  if (!row) throw notFound('account', path.id, 'id');
  if (body.three_d_secure_policy === 'mandate_challenge') await checkChallengeAllowed(ctx.db, row);
  // Only callers pinned before 2026-09-06 can send these: the newest version's validator refuses them.
  if (body.business_type !== undefined) await checkCategory(ctx.db, 'business_type', body.business_type);
  if (body.industry_type !== undefined) await checkCategory(ctx.db, 'industry_type', body.industry_type);
  const update = changes(row, body);
  if (Object.keys(update).length === 0) return (await accountViews(ctx.db, ctx.access, [row], viewOptions(ctx)))[0];

  if ('external_id' in update) await checkExternalIdFree(ctx, row, update.external_id as string | null);
  try {
    await ctx.db('accounts').where({ id: row.id }).update({ ...update, updated_at: nowMs(ctx.db) });
  } catch (e) {
    // A sibling committed the same external id after the check above.
    if (isUniqueViolation(e, EXTERNAL_ID_CONSTRAINT)) throw duplicateExternalId(update.external_id as string);
    throw e;
  }
  const view = (await loadAccountView(ctx.db, ctx.access, row.id, viewOptions(ctx)))!;
  await ctx.emit('account.updated', row.id, view);
  return view;
};
