// A transfer's two secrets: the token of its tracking page and a claim link's code. Each is made again from the
// transfer's id whenever it is shown (runtime/sealed-secrets.ts derivedSecret); the row keeps only its hash, which
// the pages and POST /transfers/{id}/claim look the secret up by. Events keep neither: a delivery puts tracking_url
// back (handlers/webhooks/delivery), and claim_url is null in events.
import { hashSecret } from '../../runtime/credentials.js';
import { derivedSecret } from '../../runtime/sealed-secrets.js';

export const trackingToken = (transferId: string) => derivedSecret('transfer tracking', transferId);
export const claimCode = (transferId: string) => derivedSecret('claim link', transferId);

/** The stored hashes of a new transfer's secrets. */
export const trackingTokenHash = (transferId: string) => hashSecret(trackingToken(transferId));
export const claimCodeHash = (transferId: string) => hashSecret(claimCode(transferId));
