// The sweeps a sandbox clock runs while it advances (runtime/clock-advance.ts): work found by time rather than queued
// as a job, each restricted to the clock's accounts by handlers/sandbox/sweep-scope.ts.
import type { ClockSweep } from '../../runtime/clock-advance.js';
import { clearingSweep } from '../ledger/clearing.js';
import { exportRetentionSweep } from '../exports/expire.js';
import { adDeliverySweep } from '../ads/deliver.js';
import { membershipPeriodSweep } from '../memberships/period-sweep.js';

export const clockSweeps: ClockSweep[] = [clearingSweep, exportRetentionSweep, adDeliverySweep, membershipPeriodSweep];
