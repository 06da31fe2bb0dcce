// The simulated ad network's reach estimate (spec/areas/ads.yaml estimateAdGroupReach and docs/sandbox/ad-network.md say the same
// numbers): the delivery model's audience, narrowed by a draft targeting in whole-number arithmetic, so one targeting
// always gives one answer.
import type { ReachRange, Targeting } from '../../handlers/ads/index.js';
import { audienceSize } from './delivery-model.js';

const YOUNGEST = 18;
const OLDEST = 65; // stands for 65 and over
const GENDER_PERCENT = { all: 100, male: 49, female: 51 } as const;
const LANGUAGE_PERCENT: Record<string, number> = { en: 40, es: 12, pt: 6, fr: 5, de: 4 };
const OTHER_LANGUAGE_PERCENT = 2;
/** Below this many people the network gives no range. */
export const SMALLEST_ESTIMATE = 1000;

const percentOf = (n: number, percent: number) => Math.floor((n * percent) / 100);

function devicePercent(platforms: ('mobile' | 'desktop')[] | undefined): number {
  const set = new Set(platforms ?? []);
  if (set.size !== 1) return 100;
  return set.has('mobile') ? 80 : 35;
}

function languagePercent(languages: string[] | undefined): number {
  if (!languages || languages.length === 0) return 100;
  const sum = [...new Set(languages)].reduce((s, l) => s + (LANGUAGE_PERCENT[l] ?? OTHER_LANGUAGE_PERCENT), 0);
  return Math.min(100, sum);
}

/** The estimate for a targeting, given its audiences' sizes (a deleted or unknown audience counts 0). */
export function estimatePeople(t: Targeting, sizes: Map<string, number>): number {
  let people = audienceSize(t.audiences, sizes);
  const d = t.demographics ?? {};
  if (!d.automatic) {
    const ages = (d.maximum_age ?? OLDEST) - (d.minimum_age ?? YOUNGEST) + 1;
    people = Math.floor((people * ages) / (OLDEST - YOUNGEST + 1));
    people = percentOf(people, GENDER_PERCENT[d.gender ?? 'all']);
  }
  people = percentOf(people, devicePercent(t.devices?.platforms));
  return percentOf(people, languagePercent(t.languages));
}

/** The range the network answers: the estimate less and plus 10%, or nulls under SMALLEST_ESTIMATE. */
export function reachRange(people: number): ReachRange {
  if (people < SMALLEST_ESTIMATE) return { users_lower_bound: null, users_upper_bound: null };
  return { users_lower_bound: percentOf(people, 90), users_upper_bound: percentOf(people, 110) };
}
