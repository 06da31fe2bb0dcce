import type { Handler } from '../../generated/handler.js';
import { listExternalAccountLeadForms } from './listExternalAccountLeadForms.js';

/** The deprecated /social_accounts route: the same implementation (the runtime adds Deprecation and Link). */
export const listSocialAccountLeadForms: Handler<'listSocialAccountLeadForms'> = (input, ctx) => listExternalAccountLeadForms(input, ctx);
