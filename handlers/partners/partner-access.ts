// A partner reads only the partner businesses it referred: anyone else's is a 404, never leaked.
import type { HandlerContext } from '../../generated/handler.js';
import { notFound } from '../../runtime/errors.js';
import { readRow } from '../../runtime/plain/stored-resource.js';
import type { PartnerBusinessRow } from '../../generated/rows.js';
import { resources } from '../../generated/resources.js';

export async function ownPartnerBusiness(ctx: HandlerContext, id: string): Promise<PartnerBusinessRow> {
  const row = await readRow(ctx.db, resources.PartnerBusiness, id);
  if (!row || row.partner_user_id !== ctx.principal.userId) throw notFound('partner business', id, 'id');
  return row;
}
