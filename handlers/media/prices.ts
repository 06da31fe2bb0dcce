// The sandbox's price table, USD minor units: an image by resolution, a video per second by resolution.
import type { Resolution } from './media-generator-port.js';

export const MEDIA_CURRENCY = 'usd';
export const IMAGE_PRICES: Record<Resolution, number> = { low: 2, standard: 4, high: 8 };
export const VIDEO_PRICES_PER_SECOND: Record<Resolution, number> = { low: 10, standard: 20, high: 40 };

export const priceOf = (type: 'image' | 'video', resolution: Resolution, seconds: number | null): number =>
  type === 'image' ? IMAGE_PRICES[resolution] : VIDEO_PRICES_PER_SECOND[resolution] * seconds!;
