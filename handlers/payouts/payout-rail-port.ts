// What payouts asks of a payout rail (a bank, a card network, a wallet or a chain): to take a new payout. The rail
// then reports each step back through rail-reports.ts, where this area moves the payout and posts its money.
import type { JobOptions } from '../../runtime/jobs.js';
import { definePort } from '../../runtime/ports.js';

/** The job that gives a payout to the rail, added with the COMMIT of the request that writes the payout (request-payout.ts). */
export interface RailHandOver { task: string; payload: unknown; options: JobOptions }

export interface PayoutRail {
  handOver(payoutId: string): RailHandOver;
}

export const payoutRail = definePort<PayoutRail>('payout rail');
