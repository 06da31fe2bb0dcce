// Written by hand, not declared plain: the variant rules of variant-service.ts (prices, periods, stock) that checkout configurations share.
import type { Handler } from '../../generated/handler.js';
import { createVariant as create } from './variant-service.js';

/** POST /variants (and the deprecated POST /plans): the runtime has checked plan:create on account_id. */
export const createVariant: Handler<'createVariant'> = async ({ body }, ctx) => create(ctx, body);
