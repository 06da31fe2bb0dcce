// Ads' instant forms on the sandbox network: an ad collects leads with a form of its facebook page, either one the
// page already has (lead_form_id, an active form's platform id) or one it authors (lead_form), which the network then
// makes on the page. Leads campaigns only. Forms are never edited: authoring again makes another form.
import type { Knex } from 'knex';
import { invalid } from '../../runtime/errors.js';
import { newId } from '../../runtime/ids.js';
import { socialNetwork } from '../external_accounts/index.js';
import type { AdRow, ExternalAccountRow } from '../../generated/rows.js';

type Question = { type: 'full_name' | 'email' | 'phone' | 'city' | 'country' | 'zip_code' | 'custom'; label?: string };
export interface LeadFormInput {
  name?: string;
  form_type?: 'more_volume' | 'higher_intent';
  phone_verification?: boolean;
  intro?: { headline: string; description?: string };
  questions: Question[];
  privacy_policy: { url: string; link_text?: string };
  disclaimer?: { title: string; text: string };
  completion?: { headline: string; description?: string; button_text?: string; url?: string };
}

const QUESTION_LABELS: Record<Exclude<Question['type'], 'custom'>, string> = {
  full_name: 'Full name', email: 'Email', phone: 'Phone number', city: 'City', country: 'Country', zip_code: 'ZIP code',
};

/** The form as the ad shows it: every field present, defaults filled. */
function storedForm(f: LeadFormInput): Record<string, unknown> {
  if (f.questions.length === 0) throw invalid('An instant form asks at least one question', 'lead_form.questions');
  const questions = f.questions.map((q, i) => {
    if (q.type === 'custom' && !q.label) throw invalid('A custom question needs label', `lead_form.questions.${i}.label`);
    return { type: q.type, label: q.label ?? QUESTION_LABELS[q.type as keyof typeof QUESTION_LABELS] };
  });
  return {
    name: f.name ?? null, form_type: f.form_type ?? 'more_volume', phone_verification: f.phone_verification ?? false,
    intro: f.intro ? { headline: f.intro.headline, description: f.intro.description ?? null } : null, questions,
    privacy_policy: { url: f.privacy_policy.url, link_text: f.privacy_policy.link_text ?? null },
    disclaimer: f.disclaimer ?? null,
    completion: f.completion ? { headline: f.completion.headline, description: f.completion.description ?? null,
      button_text: f.completion.button_text ?? null, url: f.completion.url ?? null } : null,
  };
}

/** The ad's facebook page among its external accounts, locked (forms on it are numbered one after the other). */
async function pageOf(db: Knex, externalAccountIds: string[], param: string): Promise<ExternalAccountRow> {
  const page = externalAccountIds.length === 0 ? undefined
    : await db('external_accounts').whereIn('id', externalAccountIds).where({ platform: 'facebook', status: 'connected' })
      .whereNull('deleted_at').forUpdate().first();
  if (!page) throw invalid('Instant forms live on a facebook page: name one in external_accounts', param);
  return page;
}

/** The network makes a form on the page: the next "<page external_id>_f<n>". */
export async function makeNetworkForm(db: Knex, page: Pick<ExternalAccountRow, 'id' | 'account_id' | 'external_id'>, form: {
  name: string | null; privacy_policy_url: string | null; question_labels: string[];
}): Promise<string> {
  const [{ n }] = await db('external_account_lead_forms').where({ external_account_id: page.id }).count({ n: '*' });
  const platformFormId = `${page.external_id}_f${Number(n) + 1}`;
  await db('external_account_lead_forms').insert({
    id: newId('xform_'), account_id: page.account_id, external_account_id: page.id, platform_form_id: platformFormId,
    name: form.name, locale: socialNetwork().formLocale, privacy_policy_url: form.privacy_policy_url, question_labels: form.question_labels,
    status: 'active',
  });
  return platformFormId;
}

export interface LeadFormChange { lead_form?: LeadFormInput; lead_form_id?: string | null }

/** The ad's lead form columns after the change, or {} when nothing about them changes. `current` is the stored ad
 * (updates); a change of external accounts re-checks the form the ad keeps. */
export async function leadFormColumns(db: Knex, objective: string, externalAccountIds: string[], body: LeadFormChange,
  externalAccountsChanged: boolean, current?: Pick<AdRow, 'lead_form_id'>): Promise<Record<string, unknown>> {
  if (body.lead_form !== undefined && body.lead_form_id != null) {
    throw invalid('Author a form (lead_form) or reuse one (lead_form_id), not both', 'lead_form_id');
  }
  if (body.lead_form === undefined && body.lead_form_id === undefined) {
    if (!externalAccountsChanged || !current?.lead_form_id) return {};
    await checkReusedForm(db, externalAccountIds, current.lead_form_id, 'external_accounts');
    return {};
  }
  if (body.lead_form_id === null) return { lead_form: null, lead_form_id: null };
  const param = body.lead_form !== undefined ? 'lead_form' : 'lead_form_id';
  if (objective !== 'leads') throw invalid(`Instant forms are for leads campaigns; this campaign's objective is ${objective}`, param);
  if (body.lead_form_id !== undefined) {
    await checkReusedForm(db, externalAccountIds, body.lead_form_id, 'lead_form_id');
    return { lead_form: null, lead_form_id: body.lead_form_id };
  }
  const form = storedForm(body.lead_form!);
  const page = await pageOf(db, externalAccountIds, 'lead_form');
  const id = await makeNetworkForm(db, page, {
    name: form.name as string | null, privacy_policy_url: body.lead_form!.privacy_policy.url,
    question_labels: (form.questions as { label: string }[]).map((q) => q.label),
  });
  return { lead_form: JSON.stringify(form), lead_form_id: id };
}

async function checkReusedForm(db: Knex, externalAccountIds: string[], formId: string, param: string): Promise<void> {
  const page = await pageOf(db, externalAccountIds, param);
  const form = await db('external_account_lead_forms').where({ platform_form_id: formId, external_account_id: page.id, status: 'active' }).first('id');
  if (!form) throw invalid(`No active instant form '${formId}' on the ad's facebook page ${page.id}`, param);
}
