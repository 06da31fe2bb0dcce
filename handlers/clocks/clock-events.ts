import type { OnClockReady } from '../../runtime/clock-advance.js';
import { recordEvent } from '../../generated/events.js';
import { resources } from '../../generated/resources.js';
import type { ClockRow } from '../../generated/rows.js';

/** clock.ready, in the transaction that ends the advance (the runtime hands over the clocks row it wrote). */
export const clockReady: OnClockReady = async (trx, clock) => {
  await recordEvent(trx, 'clock.ready', clock.account_id, resources.Clock.view(clock as ClockRow));
};
