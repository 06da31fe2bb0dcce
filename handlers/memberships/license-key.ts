// Software license keys: four groups of five base32 characters (RFC 4648 alphabet, no 0/1/8/9 to misread),
// e.g. ABCDE-FGHIJ-KLMNO-PQRST: 100 random bits, typed by hand from a receipt.
import { randomBytes } from 'node:crypto';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function newLicenseKey(): string {
  const bytes = randomBytes(20);
  const chars = [...bytes].map((b) => BASE32[b & 31]);
  return [0, 5, 10, 15].map((i) => chars.slice(i, i + 5).join('')).join('-');
}

export const looksLikeLicenseKey = (id: string) => /^[A-Z2-7]{5}(-[A-Z2-7]{5}){3}$/.test(id);
