import type { Handler } from '../../generated/handler.js';
import { listExternalAccountPosts } from './listExternalAccountPosts.js';

/** The deprecated /social_accounts route: the same implementation (the runtime adds Deprecation and Link). */
export const listSocialAccountPosts: Handler<'listSocialAccountPosts'> = (input, ctx) => listExternalAccountPosts(input, ctx);
