// What the media area asks of a generator: the bytes for a prompt, or its refusal. The generate_media job
// (generate.ts) asks outside any transaction and then applies the outcome itself: the file, the charge, the events.
import { definePort } from '../../runtime/ports.js';

export type Resolution = 'low' | 'standard' | 'high';

export interface MediaRequest {
  type: 'image' | 'video';
  prompt: string;
  resolution: Resolution;
  duration_seconds: number | null;
}

/** Made: the file's bytes (an image is a PNG, a video an MP4: media-view.ts); refused: the generator's words, as a
 * content filter would refuse (the asset fails with generator_refused). */
export type MediaOutcome = { made: Buffer } | { refused: string };

export interface MediaGenerator {
  render(request: MediaRequest): Promise<MediaOutcome>;
}

export const mediaGenerator = definePort<MediaGenerator>('media generator');
