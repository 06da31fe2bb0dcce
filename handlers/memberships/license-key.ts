// Software license keys: four groups of five base32 characters (RFC 4648 alphabet, no 0/1/8/9 to misread),
// e.g. ABCDE-FGHIJ-KLMNO-PQRST: 100 random bits, typed by hand from a receipt.
//
// At rest a key is two columns (migrations/520_license_keys_at_rest.ts): license_key_sealed, which reads unseal to
// show it (runtime/sealed-secrets.ts), and license_key_hash, its hashSecret, which a lookup by key finds the row by
// (one statement on a unique index). Membership events keep no key: a delivery reads it again
// (handlers/webhooks/delivery/secret-links.ts).
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../runtime/credentials.js';
import { seal, unseal } from '../../runtime/sealed-secrets.js';
import type { MembershipRow } from '../../generated/rows.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function newLicenseKey(): string {
  const bytes = randomBytes(20);
  const chars = [...bytes].map((b) => BASE32[b & 31]);
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}

export const looksLikeLicenseKey = (id: string) => /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/.test(id);

/** The columns a new membership stores for `key` (none: both null). */
export const storedLicenseKey = (key: string | null) => ({
  license_key_sealed: key === null ? null : seal(key),
  license_key_hash: key === null ? null : hashSecret(key),
});

/** The Membership resource's license_key (spec table: columns): the sealed column, unsealed; null when it was
 * sealed under another FILE_SIGNING_SECRET (it cannot be shown again, but its hash still finds the membership). */
export function shownLicenseKey(row: Pick<MembershipRow, 'license_key_sealed'>): string | null {
  if (!row.license_key_sealed) return null;
  try {
    return unseal(row.license_key_sealed);
  } catch {
    return null;
  }
}
