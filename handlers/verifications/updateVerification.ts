// Written by hand, not a plain transition: PATCH: sign and submit are moves chosen by the body.
import type { Handler } from '../../generated/handler.js';
import { ApiError, invalid } from '../../runtime/errors.js';
import { loadOwned } from '../../runtime/ownership.js';
import { transition } from '../../generated/state-machine.js';
import { resources } from '../../generated/resources.js';
import { nowMs } from '../shared/now.js';
import { readyFile } from '../files/index.js';
import { VALUE_FORMATS, type Requirement } from './requirements.js';
import { reviewVerificationJob } from './review.js';
import { signAdsAgreement } from './ads-agreement.js';
import { releaseFunds } from '../accounts/index.js';

type Answer = { id: string; file?: string; value?: string; address?: Record<string, unknown> };
type Stored = Record<string, unknown[]>;

/** PATCH /verifications/{id}: checks every answer against its entry (nothing is kept when one is refused), keeps
 * them, and when every entry is answered submits the verification (identity: to the reviewer; ads agreement:
 * signed at once). */
export const updateVerification: Handler<'updateVerification'> = async ({ path, body }, ctx) => {
  const row = await loadOwned(ctx, resources.Verification, path.id, ['company:update'], { read: 'lock' });
  if (row.status !== 'action_required') {
    throw new ApiError(400, 'invalid_state', `Verification ${row.id} is ${row.status}: it takes no answers`, 'status');
  }
  if (body.requested_information.length === 0) throw invalid('Give at least one answer', 'requested_information');
  const entries = (row.requested_information as Requirement[]).map((e) => ({ ...e }));
  const answers: Stored = { ...(row.answers as Stored) };
  const seen = new Set<string>();
  for (const [i, answer] of (body.requested_information as Answer[]).entries()) {
    const at = `requested_information.${i}`;
    const entry = entries.find((e) => e.id === answer.id);
    if (!entry) throw invalid(`No requested information '${answer.id}' on ${row.id}`, `${at}.id`);
    const given = (['file', 'value', 'address'] as const).filter((k) => answer[k] !== undefined);
    if (given.length !== 1 || given[0] !== entry.answer_type) {
      throw invalid(`'${entry.id}' is answered with exactly one ${entry.answer_type}`, `${at}.${entry.answer_type}`);
    }
    if (seen.has(entry.id) && !entry.multiple) throw invalid(`'${entry.id}' takes one answer`, `${at}.id`);
    const value = await checkedAnswer(ctx, entry, answer, at);
    // A multiple entry gathers its files (across requests too); any other entry's answer replaces the last one.
    answers[entry.id] = entry.multiple && entry.answered ? [...(answers[entry.id] ?? []), value] : [value];
    seen.add(entry.id);
    entry.answered = true;
    entry.errors = [];
  }

  const complete = entries.every((e) => e.answered);
  let status = row.status as string;
  const extra: Record<string, unknown> = {};
  if (complete && row.purpose === 'ads_agreement') {
    status = transition('Verification', status, 'sign');
    Object.assign(extra, { submitted_at: nowMs(ctx.db), reviewed_at: nowMs(ctx.db) });
    await signAdsAgreement(ctx.db, row.account_id, String(answers.req_printed_name?.[0]));
  } else if (complete) {
    status = transition('Verification', status, 'submit');
    extra.submitted_at = nowMs(ctx.db);
    await ctx.addJob(...reviewVerificationJob(row.id));
    // Everything asked for is answered: what the reviewer's request held is released (handlers/accounts/payment-controls.ts).
    await releaseFunds(ctx.db, row.account_id, 'pending_information_request');
  }
  const [updated] = await ctx.db('verifications').where({ id: row.id }).update({
    requested_information: JSON.stringify(entries), answers: JSON.stringify(answers), status, ...extra, updated_at: nowMs(ctx.db),
  }).returning('*');
  const view = resources.Verification.view(updated);
  if (status !== row.status) await ctx.emit('verification.updated', row.account_id, view);
  return view;
};

/** What is kept for one answer, or a 400 naming the answer's field. */
async function checkedAnswer(ctx: Parameters<Handler<'updateVerification'>>[1], entry: Requirement, answer: Answer, at: string): Promise<unknown> {
  if (entry.answer_type === 'file') {
    const file = await readyFile(ctx, answer.file!, `${at}.file`);
    return { file: file.id, filename: file.filename };
  }
  if (entry.answer_type === 'address') return answer.address;
  const value = answer.value!.trim();
  if (entry.options && !entry.options.includes(value)) {
    throw invalid(`'${entry.id}' must be one of ${entry.options.join(', ')}`, `${at}.value`);
  }
  const format = VALUE_FORMATS[entry.requirement];
  if (format && !format.pattern.test(value)) throw invalid(`'${entry.id}' must be ${format.describe}`, `${at}.value`);
  if (!value) throw invalid(`'${entry.id}' must not be blank`, `${at}.value`);
  return value;
}
