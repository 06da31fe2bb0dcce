// Where a buyer completes 3-D Secure in the sandbox: a page this server serves (sandbox/pages/authentication-page.ts)
// behind a single-use secret. The secret is made again from the waiting payment's or setup intent's id whenever its
// next_action is shown (runtime/sealed-secrets.ts derivedSecret); the row keeps only its hash (authentication_token,
// cleared when the step ends), and its stored next_action has no url: views put it back (authenticationUrl).
import { hashSecret } from '../../runtime/credentials.js';
import { derivedSecret } from '../../runtime/sealed-secrets.js';
import { publicBaseUrl } from '../shared/public-url.js';

export const AUTHENTICATION_PATH = '/sandbox/authenticate';

const stepToken = (waitingId: string) => derivedSecret('authentication step', waitingId);

/** The stored hash of the step's secret, which the page finds the waiting row by. */
export const authenticationTokenHash = (waitingId: string) => hashSecret(stepToken(waitingId));

export const authenticationUrl = (waitingId: string) => `${publicBaseUrl()}${AUTHENTICATION_PATH}/${stepToken(waitingId)}`;

type Row = Record<string, any>;

/** A payment's next_action as shown: the stored one (without its url) with the step's url. */
export function paymentNextAction(row: Row): Row | null {
  const stored = row.next_action;
  if (!stored?.redirect_to_url) return stored ?? null;
  return { ...stored, redirect_to_url: { url: authenticationUrl(row.id), return_url: stored.redirect_to_url.return_url ?? null } };
}

/** A setup intent's next_action as shown: the stored one (without its redirect_url) with the step's url. */
export function setupIntentNextAction(row: Row): Row | null {
  const stored = row.next_action;
  if (!stored || stored.type !== 'redirect_to_url') return stored ?? null;
  return { type: stored.type, redirect_url: authenticationUrl(row.id), return_url: stored.return_url ?? null };
}
