// The composition root: what this process serves is put together here, once, before any request or job runs.
// The runtime is handed the API's definition (it imports no generated code) and every port an area declares is
// given its implementation (the sandbox simulations unless a setting names another provider). wiring/routes.ts and
// wiring/tasks.ts import this file, so any process that serves the API or runs its jobs is composed.
import { installApi } from '../runtime/api-definition.js';
import { apiDefinition } from '../generated/api-definition.js';
import { provideFromSetting } from './port-settings.js';
import { provideFileStorage } from './file-storage-setting.js';
import { adNetwork } from '../handlers/ads/index.js';
import { buildSystem } from '../handlers/apps/index.js';
import { socialNetwork } from '../handlers/external_accounts/index.js';
import { mediaGenerator } from '../handlers/media/index.js';
import { dns } from '../handlers/payment_method_domains/index.js';
import { casePlatform, closeOnChargeback, closeOnFullRefund } from '../handlers/resolution_center_cases/index.js';
import { moderator } from '../handlers/reviews/index.js';
import { identityChecker } from '../handlers/verifications/index.js';
import { sandboxAdNetwork } from '../sandbox/ad_network/index.js';
import { sandboxBuildSystem } from '../sandbox/build_system/index.js';
import { sandboxSocialNetwork } from '../sandbox/social_network/index.js';
import { sandboxMediaGenerator } from '../sandbox/media_generator/index.js';
import { sandboxDns } from '../sandbox/dns/index.js';
import { sandboxCasePlatform } from '../sandbox/case_platform/index.js';
import { sandboxModerator } from '../sandbox/moderator/index.js';
import { sandboxIdentityChecker } from '../sandbox/identity_checker/index.js';
import { cardProcessor } from '../handlers/shared/card-processor-port.js';
import { settlementScheme, paymentOutcomes } from '../handlers/payments/index.js';
import { chargebackFollowUps, disputeScheme, preventByRefund } from '../handlers/disputes/index.js';
import { cardNetwork } from '../handlers/cards/index.js';
import { cryptoNetwork } from '../handlers/deposits/index.js';
import { payoutRail } from '../handlers/payouts/index.js';
import { membershipPaymentOutcomes } from '../handlers/memberships/index.js';
import { refundFollowUps } from '../handlers/refunds/index.js';
import { sandboxProcessor } from '../sandbox/processor/index.js';
import { sandboxDisputeScheme, sandboxSettlementScheme } from '../sandbox/card_scheme/index.js';
import { sandboxCardNetwork } from '../sandbox/card_network/index.js';
import { sandboxCryptoNetwork } from '../sandbox/crypto_network/index.js';
import { sandboxPayoutRail } from '../sandbox/payout_rail/index.js';

let composed = false;

/** Installs the API definition and the providers of every port; a second call does nothing. */
export function compose(env: NodeJS.ProcessEnv = process.env): void {
  if (composed) return;
  composed = true;
  installApi(apiDefinition);
  provideFileStorage(env);
  provideMoneySystems(env);
  provideOutsideServices(env);
  connectAreas();
}

/** The money side's outside systems, each port's provider by its setting. The processor charges the cards and relays
 * what the card schemes report on its payments (disputes, alerts), so PAYMENT_PROCESSOR names all three of its ports. */
function provideMoneySystems(env: NodeJS.ProcessEnv): void {
  provideFromSetting(cardProcessor, env, 'PAYMENT_PROCESSOR', { sandbox: () => sandboxProcessor });
  provideFromSetting(settlementScheme, env, 'PAYMENT_PROCESSOR', { sandbox: () => sandboxSettlementScheme });
  provideFromSetting(disputeScheme, env, 'PAYMENT_PROCESSOR', { sandbox: () => sandboxDisputeScheme });
  provideFromSetting(cardNetwork, env, 'CARD_ISSUING_NETWORK', { sandbox: () => sandboxCardNetwork });
  provideFromSetting(cryptoNetwork, env, 'CRYPTO_NETWORK', { sandbox: () => sandboxCryptoNetwork });
  provideFromSetting(payoutRail, env, 'PAYOUT_RAIL', { sandbox: () => sandboxPayoutRail });
}

/** The outside services the business areas use besides money: each port's provider by its setting. */
function provideOutsideServices(env: NodeJS.ProcessEnv): void {
  provideFromSetting(adNetwork, env, 'AD_NETWORK', { sandbox: () => sandboxAdNetwork });
  provideFromSetting(socialNetwork, env, 'SOCIAL_NETWORK', { sandbox: () => sandboxSocialNetwork });
  provideFromSetting(buildSystem, env, 'BUILD_SYSTEM', { sandbox: () => sandboxBuildSystem });
  provideFromSetting(mediaGenerator, env, 'MEDIA_GENERATOR', { sandbox: () => sandboxMediaGenerator });
  provideFromSetting(identityChecker, env, 'IDENTITY_CHECKER', { sandbox: () => sandboxIdentityChecker });
  provideFromSetting(moderator, env, 'REVIEW_MODERATOR', { sandbox: () => sandboxModerator });
  provideFromSetting(casePlatform, env, 'CASE_PLATFORM', { sandbox: () => sandboxCasePlatform });
  provideFromSetting(dns, env, 'DNS_RESOLVER', { sandbox: () => sandboxDns });
}

/** Where a lower area calls up into a higher one without importing it (areas import each other one way only): the
 * higher area's implementation of the lower one's port. */
function connectAreas(): void {
  paymentOutcomes.provide(membershipPaymentOutcomes);
  refundFollowUps.provide({ preventChargebacks: preventByRefund, refundedInFull: closeOnFullRefund });
  chargebackFollowUps.provide({ chargedBack: closeOnChargeback });
}

compose();
