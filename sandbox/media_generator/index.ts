// The sandbox media generator: deterministic pictures and videos from the prompt (generator.ts), served through
// the media area's port.
import type { MediaGenerator } from '../../handlers/media/index.js';
import { GeneratorRefused, generate } from './generator.js';

export { FAIL_MARKER } from './generator.js';

export const sandboxMediaGenerator: MediaGenerator = {
  async render(request) {
    try {
      return { made: generate(request) };
    } catch (e) {
      if (e instanceof GeneratorRefused) return { refused: e.message };
      throw e;
    }
  },
};
