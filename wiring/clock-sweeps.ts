// The sweeps a sandbox clock runs while it advances (runtime/clock-advance.ts): work found by time rather than queued
// as a job, each restricted to the clock's accounts by handlers/shared/sweep-scope.ts.
import type { ClockSweep } from '../runtime/clock-advance.js';
import { clearingSweep } from '../handlers/ledger/index.js';
import { exportRetentionSweep } from '../handlers/exports/index.js';
import { adDeliverySweep } from '../handlers/ads/index.js';
import { membershipPeriodSweep } from '../handlers/memberships/index.js';

export const clockSweeps: ClockSweep[] = [clearingSweep, exportRetentionSweep, adDeliverySweep, membershipPeriodSweep];
