// A port's provider is named by a setting: `sandbox` by default, another provider by its name, and a name no provider
// answers to stops the process at start with an error that names the setting, the port and the choices.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePort } from '../../runtime/ports.js';
import { provideFromSetting } from '../../wiring/port-settings.js';

const t = suite('wiring: port providers from settings');
const providers = { sandbox: () => 'the simulation', acme: () => 'a real provider' };

t('unset or empty, the sandbox provides the port', () => {
  for (const env of [{}, { GREETER: '' }]) {
    const port = definePort<string>('greeter');
    provideFromSetting(port, env, 'GREETER', providers);
    assert.is(port(), 'the simulation');
  }
});

t('a setting naming another provider gets it', () => {
  const port = definePort<string>('greeter');
  provideFromSetting(port, { GREETER: 'acme' }, 'GREETER', providers);
  assert.is(port(), 'a real provider');
});

t('an unknown value throws, naming the setting, the port and the choices; nothing is provided', () => {
  const port = definePort<string>('greeter');
  assert.throws(() => provideFromSetting(port, { GREETER: 'toString' }, 'GREETER', providers),
    (e: Error) => e.message === 'GREETER=toString names no provider of the greeter port; known: sandbox, acme');
  assert.is(port.provided(), false);
});

t('every outside system besides money is provided once composed', async () => {
  await import('../../wiring/compose.js');
  const ports = await Promise.all([
    import('../../handlers/ads/ad-network-port.js').then((m) => m.adNetwork),
    import('../../handlers/external_accounts/social-network-port.js').then((m) => m.socialNetwork),
    import('../../handlers/apps/build-system-port.js').then((m) => m.buildSystem),
    import('../../handlers/media/media-generator-port.js').then((m) => m.mediaGenerator),
    import('../../handlers/verifications/identity-checker-port.js').then((m) => m.identityChecker),
    import('../../handlers/reviews/moderator-port.js').then((m) => m.moderator),
    import('../../handlers/resolution_center_cases/platform-port.js').then((m) => m.casePlatform),
    import('../../handlers/payment_method_domains/dns-port.js').then((m) => m.dns),
  ]);
  assert.equal(ports.filter((p) => !p.provided()).map((p) => p.name), []);
});

t.run();
