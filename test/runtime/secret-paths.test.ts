// runtime/secret-paths.ts: what request logs write for a path, given the routes that declare secret segments.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { REDACTED, secretPathRedactor } from '../../runtime/secret-paths.js';

const t = suite('runtime: secret paths in logs');

const logged = secretPathRedactor([
  { path: '/claim/:code', secretParams: ['code'] },
  { path: '/api/v1/memberships/:id', secretParams: ['id'] },
  { path: '/api/v1/payments/:id' },
  { path: '/downloads/:id/:name' },
]);

t('a declared segment is written redacted, the rest as requested', () => {
  assert.is(logged('/claim/Abc123'), `/claim/${REDACTED}`);
  assert.is(logged('/api/v1/memberships/ABCDE-FGHIJ-KLMNO-PQRST'), `/api/v1/memberships/${REDACTED}`);
  assert.is(logged('/api/v1/payments/pay_1'), '/api/v1/payments/pay_1');
  assert.is(logged('/downloads/file_1/a.txt'), '/downloads/file_1/a.txt');
});

t('matches as the routers do: a trailing slash, literals in any case; other shapes are left alone', () => {
  assert.is(logged('/claim/Abc123/'), `/claim/${REDACTED}/`);
  assert.is(logged('/CLAIM/Abc123'), `/CLAIM/${REDACTED}`);
  assert.is(logged('/claim/Abc123/more'), '/claim/Abc123/more');
  assert.is(logged('/claims/Abc123'), '/claims/Abc123');
});

t('declaring a parameter the path lacks is a mistake, said at start-up', () => {
  assert.throws(() => secretPathRedactor([{ path: '/claim/:code', secretParams: ['token'] }]), /no such parameter/);
});

t.run();
