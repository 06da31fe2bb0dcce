// Deprecation: a deprecated operation's answers (errors included, so set before anything can fail) say so, link to
// the successor request, and give the sunset date where one is announced.
import type { OperationDefinition } from '../operation.js';
import { successorLink } from '../successor-link.js';
import type { HeaderSink } from './operation-call.js';

export function setDeprecationHeaders(headers: HeaderSink, op: OperationDefinition, version: string,
  params: Record<string, string>, querystring: string): void {
  if (!op.deprecated) return;
  headers.set('Deprecation', 'true');
  const link = successorLink(op.deprecated, version, params, querystring);
  if (link) headers.set('Link', `<${link}>; rel="successor-version"`);
  if (op.deprecated.sunset) headers.set('Sunset', new Date(`${op.deprecated.sunset}T00:00:00Z`).toUTCString());
}
