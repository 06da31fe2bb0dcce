// A port's provider named by a setting: `sandbox` (the simulation in sandbox/) unless the environment names
// another. A value no provider answers to stops the process at start, before it serves anything.
import type { Port } from '../runtime/ports.js';

export function provideFromSetting<T>(port: Port<T>, env: NodeJS.ProcessEnv, setting: string, providers: Record<string, () => T>): void {
  const choice = env[setting] || 'sandbox';
  const make = Object.hasOwn(providers, choice) ? providers[choice] : undefined;
  if (!make) {
    throw new Error(`${setting}=${choice} names no provider of the ${port.name} port; known: ${Object.keys(providers).join(', ')}`);
  }
  port.provide(make());
}
