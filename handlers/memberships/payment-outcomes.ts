// What a payment's outcome does to memberships, as the payments area asks it (handlers/payments/payment-outcomes-port.ts):
// a settled payment creates or renews the buyer's membership, a declined renewal moves its membership on the dunning
// schedule, and a renewal collected again charges the renewal card as it is now.
import type { PaymentOutcomes } from '../payments/index.js';
import { resources } from '../../generated/resources.js';
import { fulfil } from './fulfilment.js';
import { isRenewal, renewalFailed } from './renewal-outcome.js';
import { renewalRetryChanges } from './renewal-retry.js';
import { membershipEventData } from './membership-events.js';

export const membershipPaymentOutcomes: PaymentOutcomes = {
  async paid(db, payment) {
    const { memberId, membershipId, activated } = await fulfil(db, payment);
    return { memberId, membershipId, activated: activated ? membershipEventData(resources.Membership.view(activated)) : null };
  },
  async declined(db, payment) {
    if (isRenewal(payment)) await renewalFailed(db, payment);
  },
  async retryChanges(db, payment) {
    return isRenewal(payment) ? renewalRetryChanges(db, payment) : {};
  },
};
