// What may be registered as a payment method domain: a public hostname as browsers show it in the address bar.
import { invalid } from '../../runtime/errors.js';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LABEL = /^[a-z]{2,63}$/;

/** The hostname lower-cased, or a 400 naming domain that says what is wrong. */
export function registrableHostname(input: string): string {
  const host = input.toLowerCase();
  const refuse = (why: string) =>
    invalid(`domain must be a hostname such as pay.example.com (${why}): '${input}'`, 'domain');
  if (/[:/?#@\s]/.test(host)) throw refuse('no scheme, port, path or spaces');
  if (host.length === 0 || host.length > 253) throw refuse('1 to 253 characters');
  const labels = host.split('.');
  if (labels.length < 2) throw refuse('at least two labels');
  if (!labels.every((l) => LABEL.test(l))) throw refuse('labels of letters, digits and inner hyphens, at most 63 each');
  if (!TOP_LABEL.test(labels[labels.length - 1])) throw refuse('the last label is letters: no IP address');
  return host;
}
