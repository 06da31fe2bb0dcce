// Where a buyer completes 3-D Secure in the sandbox: a page this server serves (handlers/sandbox/authentication-page.ts)
// behind a single-use secret, stored on the payment or setup intent that waits for it.
import { randomToken } from '../../runtime/ids.js';
import { publicBaseUrl } from '../shared/public-url.js';

export const AUTHENTICATION_PATH = '/sandbox/authenticate';

export function newAuthenticationLink(): { token: string; url: string } {
  const token = randomToken(32);
  return { token, url: `${publicBaseUrl()}${AUTHENTICATION_PATH}/${token}` };
}
