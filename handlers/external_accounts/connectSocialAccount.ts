import type { Handler } from '../../generated/handler.js';
import { connectExternalAccount } from './connectExternalAccount.js';

/** The deprecated /social_accounts route: the same implementation (the runtime adds Deprecation and Link). */
export const connectSocialAccount: Handler<'connectSocialAccount'> = (input, ctx) => connectExternalAccount(input, ctx);
