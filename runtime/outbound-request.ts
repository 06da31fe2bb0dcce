// Requests to URLs a caller chose. The host is resolved once, every address it gives is checked
// (runtime/destination-address.ts), and the connection goes to those checked addresses: the socket's own lookup is
// answered from them, so a name that resolves elsewhere a moment later (DNS rebinding) cannot move it inside.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, nonPublicAddress, nonPublicName, type NonPublic } from './destination-address.js';

export interface DestinationPolicy {
  /** loopback, private, link-local, multicast and other non-public addresses may be reached (metadata never) */
  allowPrivate: boolean;
}

/** Why a destination is refused: what the URL's host is (or resolves to), and whether the policy could allow it. */
export interface Refusal {
  reason: string;
  alwaysRefused: boolean;
}

const refused = (np: NonPublic | null, policy: DestinationPolicy): np is NonPublic =>
  np !== null && (np.alwaysRefused || !policy.allowPrivate);

/** The refusal the host itself (an IP literal or a reserved name) earns, without looking anything up. */
export function refusalByHost(url: URL, policy: DestinationPolicy): Refusal | null {
  const host = bareHost(url);
  const np = isIP(host) ? nonPublicAddress(host) : nonPublicName(host);
  return refused(np, policy) ? { reason: `${host} is ${np.kind}`, alwaysRefused: np.alwaysRefused } : null;
}

function refusalByName(host: string): Refusal | null {
  const np = nonPublicName(host);
  return np?.alwaysRefused ? { reason: `${host} is ${np.kind}`, alwaysRefused: true } : null;
}

/** The refusal the first of the host's addresses that may not be reached earns (a name's addresses only). */
function refusalByAddresses(host: string, addresses: readonly LookupAddress[], policy: DestinationPolicy): Refusal | null {
  for (const { address } of addresses) {
    const np = nonPublicAddress(address);
    // The address itself is not named: for an internal name it would tell the caller what the server's DNS says.
    if (refused(np, policy)) return { reason: `${host} resolves to ${np.kind}`, alwaysRefused: np.alwaysRefused };
  }
  return null;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (e, addresses) => (e ? reject(e) : resolve(addresses))));
}

/**
 * The check made when a URL is saved: by its host, then (when something could be refused) by what its name resolves
 * to now. A name that does not resolve, or not within `lookupTimeoutMs`, is not refused here: it is checked again on
 * every request (postToDestination).
 */
export async function destinationRefusal(url: URL, policy: DestinationPolicy, lookupTimeoutMs = 2000): Promise<Refusal | null> {
  const byHost = refusalByHost(url, policy);
  const host = bareHost(url);
  if (byHost || isIP(host)) return byHost;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), lookupTimeoutMs); });
  try {
    const addresses = await Promise.race([resolveAll(host).catch(() => null), gaveUp]);
    return addresses ? refusalByAddresses(host, addresses, policy) : null;
  } finally {
    clearTimeout(timer);
  }
}

/** A destination the policy refuses: thrown by postToDestination before any connection is made. */
export class RefusedDestination extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

/** `work`, or the signal's reason once it aborts first (a lookup cannot be cancelled, only left behind). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** The socket's lookup, answered from addresses already checked. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
    if (usable.length === 0) {
      callback(Object.assign(new Error(`no address of family ${options.family}`), { code: 'ENOTFOUND' }), '', 0);
      return;
    }
    if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, [...usable]);
    else callback(null, usable[0].address, usable[0].family);
  };
}

// Kept-alive connections are keyed by host and port: each went to an address checked when it was opened.
const agents = { 'http:': new HttpAgent({ keepAlive: true }), 'https:': new HttpsAgent({ keepAlive: true }) };

export interface Answer {
  status: number;
  /** the answer's Retry-After header, as sent (null when absent) */
  retryAfter: string | null;
}

/**
 * POSTs `body` to `url` once: redirects are not followed (a 3xx is the answer), the response body is discarded.
 * Rejects with RefusedDestination when the host or an address it resolves to is refused, with the socket's or the
 * resolver's error otherwise (code ECONNREFUSED, ENOTFOUND, ...), and with the signal's reason once it aborts.
 */
export async function postToDestination(url: URL, headers: Record<string, string>, body: string, policy: DestinationPolicy, signal: AbortSignal): Promise<Answer> {
  const host = bareHost(url);
  // A name is judged by what it resolves to now (localhost too); only names that mean a metadata service are
  // refused as such, whatever the resolver says.
  const byHost = isIP(host) ? refusalByHost(url, policy) : refusalByName(host);
  if (byHost) throw new RefusedDestination(byHost);
  let lookup: LookupFunction | undefined;
  if (!isIP(host)) {
    const addresses = await untilAborted(resolveAll(host), signal);
    const byAddress = refusalByAddresses(host, addresses, policy);
    if (byAddress) throw new RefusedDestination(byAddress);
    lookup = pinnedLookup(addresses);
  }
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') throw new Error(`unsupported protocol ${url.protocol}`);
  const options: RequestOptions = {
    method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, signal, lookup,
    agent: agents[url.protocol as 'http:' | 'https:'],
  };
  return new Promise<Answer>((resolve, reject) => {
    const req = (secure ? httpsRequest : httpRequest)(url, options, (res) => {
      res.resume();
      res.on('error', () => {});
      const retryAfter = res.headers['retry-after'];
      resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
    });
    req.on('error', (e) => reject(signal.aborted ? signal.reason : e));
    req.end(body);
  });
}
