// Access questions name an account, product, experience or app; all of them resolve to the account that owns them.
// Only accounts exist so far: the catalogue (products, experiences) and apps come later, so their ids are not
// found yet rather than guessed at.
import { notFound } from '../../runtime/errors.js';

const NOT_YET_RESOLVABLE: Record<string, string> = { prod_: 'product', exp_: 'experience', app_: 'app' };

/** The account id a resource id answers for; 404 for ids of kinds that cannot be resolved yet. */
export function accountOfResource(resourceId: string, param: string): string {
  if (resourceId.startsWith('biz_')) return resourceId;
  const kind = Object.entries(NOT_YET_RESOLVABLE).find(([prefix]) => resourceId.startsWith(prefix))?.[1] ?? 'resource';
  throw notFound(kind, resourceId, param);
}
