// What the rest of the project uses of the memberships area: other areas import it only through this file.
// Generated routes and resources bind operation handlers and views by their own files.

// Used by other areas and the sandbox
export { shownLicenseKey } from './license-key.js';

// Used by the wiring and the entry points
export { membershipPaymentOutcomes } from './payment-outcomes.js';
export { membershipPeriodSweep } from './period-sweep.js';
export { MEMBERSHIP_PERIOD_SWEEP, membershipTasks } from './tasks.js';

// Used by tests and the bench
export { endMembershipPeriod } from './end-period-task.js';
export { createMembership } from './membership-service.js';
export { MEMBERSHIP_PERIOD_STEP, membershipPeriodStep, membershipPeriodStepTask } from './period-step.js';
