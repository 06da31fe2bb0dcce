import type { Handler } from '../../generated/handler.js';
import { createExternalAccount } from './createExternalAccount.js';

/** The deprecated /social_accounts route: the same implementation (the runtime adds Deprecation and Link). */
export const createSocialAccount: Handler<'createSocialAccount'> = (input, ctx) => createExternalAccount(input, ctx);
