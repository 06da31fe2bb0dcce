// An older version names some inputs differently (company_id for account_id): an error raised about a renamed input,
// after the request was upgraded to head names, is given back under the name the caller sent.
import { withCallersParam } from '../errors.js';

export const inCallersNames = (e: unknown, names: Record<string, string> | undefined): unknown =>
  (names ? withCallersParam(e, (param) => (Object.hasOwn(names, param) ? names[param] : param), true) : e);
