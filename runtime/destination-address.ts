// Which addresses the server may connect to on a caller's behalf. A URL a caller chose (a webhook's) must not reach
// the server's own machine or network: loopback, private, link-local and the like are refused unless the operator
// allows them, and cloud metadata services always are (nothing a caller needs lives there; credentials do).
import { BlockList, isIP } from 'node:net';

/** Why an address is not public ("a loopback address"), and whether an allowance for private destinations lifts it. */
export interface NonPublic {
  kind: string;
  alwaysRefused: boolean;
}

type Range = [network: string, prefix: number];

function list(ranges: Range[]): BlockList {
  const blocks = new BlockList();
  for (const [network, prefix] of ranges) blocks.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return blocks;
}

// Checked in order: the first that holds names the address. Metadata services sit inside link-local and ULA ranges,
// so they come first. Built on first use: Node's BlockList (its internal modules and a native object per range) cost
// an API process ~3-5 ms of its start-up, for a check only outbound requests make.
let kinds: { kind: string; alwaysRefused: boolean; blocks: BlockList }[] | null = null;
const kindsOfAddresses = () => kinds ??= [
  // AWS, GCP, Azure, Oracle and DigitalOcean (169.254.169.254), AWS over IPv6, Alibaba Cloud.
  { kind: 'a cloud metadata address', alwaysRefused: true, blocks: list([['169.254.169.254', 32], ['fd00:ec2::254', 128], ['100.100.100.200', 32]]) },
  { kind: 'a loopback address', alwaysRefused: false, blocks: list([['127.0.0.0', 8], ['::1', 128]]) },
  { kind: 'an unspecified address', alwaysRefused: false, blocks: list([['0.0.0.0', 8], ['::', 128]]) },
  { kind: 'a private address', alwaysRefused: false, blocks: list([
    ['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16],
    ['fc00::', 7], // unique local
    ['fec0::', 10], // site-local (deprecated, still routed by some)
    ['64:ff9b:1::', 48], // NAT64 for local use
  ]) },
  { kind: 'a carrier-grade NAT address', alwaysRefused: false, blocks: list([['100.64.0.0', 10]]) },
  { kind: 'a link-local address', alwaysRefused: false, blocks: list([['169.254.0.0', 16], ['fe80::', 10]]) },
  { kind: 'a multicast address', alwaysRefused: false, blocks: list([['224.0.0.0', 4], ['ff00::', 8]]) },
  { kind: 'a reserved address', alwaysRefused: false, blocks: list([
    ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['240.0.0.0', 4],
    ['::', 96], // IPv4-compatible (deprecated)
    ['100::', 64], ['2001:db8::', 32],
  ]) },
];

/** The IPv4 address an IPv6 one carries to an IPv4 host: IPv4-mapped, NAT64 (64:ff9b::/96) and 6to4 (2002::/16). */
function embeddedIPv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6], groups[7]);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6], groups[7]);
  if (groups[0] === 0x2002) return v4(groups[1], groups[2]);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part allowed), or null if it is not one. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address.split('%')[0];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number);
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, null];
  const part = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const front = part(head);
  const back = tail === null ? [] : part(tail);
  const fill = tail === null ? [] : new Array(8 - front.length - back.length).fill(0);
  return [...front, ...fill, ...back];
}

/** What makes an IP address (v4 or v6, no brackets) not public, or null when it is a public unicast address. */
export function nonPublicAddress(address: string): NonPublic | null {
  const family = isIP(address);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  const inner = family === 6 ? embeddedIPv4(address) : null;
  if (inner) return nonPublicAddress(inner);
  const type = family === 6 ? 'ipv6' : 'ipv4';
  const found = kindsOfAddresses().find((k) => k.blocks.check(address, type));
  return found ? { kind: found.kind, alwaysRefused: found.alwaysRefused } : null;
}

// Names that always mean a metadata service or this machine, whatever a resolver answers.
const METADATA_NAMES = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

/** What makes a host name (lower case, as URL parses it) non-public by its name alone, before any lookup. */
export function nonPublicName(hostname: string): NonPublic | null {
  const name = hostname.replace(/\.$/, '');
  if (METADATA_NAMES.has(name)) return { kind: 'a cloud metadata address', alwaysRefused: true };
  // RFC 6761: localhost and every name under it are the loopback interface.
  if (name === 'localhost' || name.endsWith('.localhost')) return { kind: 'a loopback address', alwaysRefused: false };
  return null;
}

/** A URL's host without the brackets of an IPv6 literal. */
export const bareHost = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');
