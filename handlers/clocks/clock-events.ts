import type { OnClockReady } from '../../runtime/clock-advance.js';
import { recordEvent } from '../../generated/events.js';
import { resources } from '../../generated/resources.js';

/** clock.ready, in the transaction that ends the advance. */
export const clockReady: OnClockReady = async (trx, clock) => {
  await recordEvent(trx, 'clock.ready', clock.account_id, resources.Clock.view(clock as { id: string; account_id: string }));
};
