// Before 2026-08-21 (entry 32) a deposit's destination could be an object { account_id, address, network }, a
// top-level network answered one network, and metadata was taken (and answered empty). An address, in either
// form, is refused: raw wallet addresses never were destinations of this API.
import { invalid } from '../../../runtime/errors.js';

const DESTINATION = /^(biz|user)_[A-Za-z0-9]{1,64}$/;
const refused = () => invalid('destination must be an account id (biz_) or your user id (user_); wallet addresses are refused', 'destination');

export function up(input: { body: Record<string, unknown> }): void {
  const { destination } = input.body;
  let id: unknown = destination;
  let network: unknown = input.body.network ?? undefined;
  if (destination !== null && typeof destination === 'object' && !Array.isArray(destination)) {
    const d = destination as Record<string, unknown>;
    if (d.address !== undefined || Object.keys(d).some((k) => k !== 'account_id' && k !== 'network')) throw refused();
    id = d.account_id;
    if (network === undefined && d.network !== undefined && d.network !== null) network = d.network;
  }
  if (typeof id !== 'string' || !DESTINATION.test(id)) throw refused();
  if (network !== undefined && typeof network !== 'string') throw invalid('network must be a string', 'network');
  input.body.destination = id;
  if (network === undefined) delete input.body.network;
  else input.body.network = network;
  delete input.body.metadata;
}
