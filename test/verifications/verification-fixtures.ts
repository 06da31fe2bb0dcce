// Shared steps of the verification tests: an uploaded ready file, answers for every entry.
import * as assert from 'uvu/assert';
import type { TestApp } from '../helpers/harness.js';

/** A ready file the key's account created, with real bytes through its signed upload URL. */
export async function readyFile(app: TestApp, key: string, filename = 'id-front.png'): Promise<string> {
  const created = await app.request('POST', '/files', { token: key, body: { filename } });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const res = await fetch(created.body.upload_url, { method: 'PUT', body: 'image bytes', headers: created.body.upload_headers });
  assert.is(res.status, 200, await res.text());
  return created.body.id;
}

export const ADDRESS = { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' };

/** Answers to every entry of an individual identity verification. */
export const individualAnswers = (fileId: string, over: { ssn?: string; legal_name?: string } = {}) => [
  { id: 'req_legal_name', value: over.legal_name ?? 'Ada Lovelace' },
  { id: 'req_date_of_birth', value: '1990-12-10' },
  { id: 'req_ssn', value: over.ssn ?? '123456789' },
  { id: 'req_home_address', address: ADDRESS },
  { id: 'req_government_id', file: fileId },
];
