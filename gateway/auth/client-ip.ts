import { isIP } from 'node:net';
import type { HeaderSource } from './resolve-credential.js';

/**
 * The address a request is counted against by the per-IP limits (the public `/api/v1` limit and the
 * tax limit). With `SBM_TRUST_PROXY` = 0 it is the socket's peer. Behind N trusted proxies it is the
 * N-th `X-Forwarded-For` entry from the right: each proxy appends the address it received the request
 * from, so the rightmost N entries were written by our proxies and the N-th is the address the
 * outermost one saw. Entries further left came from the client and are never read.
 *
 * Falls back to the socket's address when the header is absent, has fewer than N entries (the
 * request did not pass through the configured proxies, and guessing would let a client choose its
 * own bucket), or when one of the rightmost N entries is malformed (empty, `unknown`, not an IPv4 or
 * IPv6 address). Garbage further left does not matter: a client cannot opt out of its own bucket by
 * sending a bad header, since the proxy's entry to the right of it is still read.
 *
 * Several `X-Forwarded-For` headers arrive joined with commas (Node and fetch `Headers` both do), which
 * is the order the proxies added them in. Entries may carry a port (`198.51.100.7:4711`,
 * `[2001:db8::1]:443`), as some load balancers write them; the port is dropped because it changes with
 * every connection. IPv4-mapped IPv6 (`::ffff:192.0.2.1`, what a dual-stack socket reports) is
 * written as plain IPv4, so one client is one key whichever way it arrived.
 */
export function resolveClientIp(
  socketIp: string | undefined,
  headers: HeaderSource,
  trustProxy: number,
): string {
  const socket = socketIp ? socketAddress(socketIp) : 'unknown';
  if (trustProxy <= 0) return socket;
  const header = headers.get('x-forwarded-for');
  if (!header) return socket;
  const entries = header.split(',');
  if (entries.length < trustProxy) return socket;
  let chosen = socket;
  for (let i = entries.length - 1; i >= entries.length - trustProxy; i--) {
    const ip = parseForwardedEntry(entries[i]!);
    if (ip === null) return socket;
    chosen = ip;
  }
  return chosen;
}

/** The last socket address normalised: a connection's requests, and a proxy's, repeat it. */
let lastSocketIp = '';
let lastNormalized = '';

function socketAddress(ip: string): string {
  if (ip !== lastSocketIp) {
    lastNormalized = normalizeIp(ip);
    lastSocketIp = ip;
  }
  return lastNormalized;
}

/** One `X-Forwarded-For` entry as a normalised IP address, or null when it is not one. */
export function parseForwardedEntry(entry: string): string | null {
  let text = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) {
    if (!validPort(bracketed[2]) || isIP(bracketed[1]!) !== 6) return null;
    text = bracketed[1]!;
  } else {
    const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
    if (withPort) {
      if (!validPort(withPort[2]) || isIP(withPort[1]!) !== 4) return null;
      text = withPort[1]!;
    }
  }
  return isIP(text) === 0 ? null : normalizeIp(text);
}

function validPort(port: string | undefined): boolean {
  return port === undefined || Number(port) <= 65_535;
}

/** Lower-cased, and IPv4-mapped IPv6 written as the IPv4 address. */
export function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped && isIP(mapped[1]!) === 4 ? mapped[1]! : lower;
}

/**
 * What a per-address limit counts a client as: an IPv4 address itself, an IPv6 address by its /64
 * network. A home or office IPv6 network is a /64 (or larger) whose hosts pick new addresses at will
 * (privacy addresses rotate by themselves), so counting single IPv6 addresses would hand every caller
 * an unlimited supply; the /64 is what one IPv4 address behind NAT is. Anything else is used as is.
 */
export function rateLimitSubject(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  const groups = ipv6Groups(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, dotted IPv4 tail converted), in hex. */
function ipv6Groups(ip: string): string[] | null {
  let text = ip.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail, ...rest] = text.split('::');
  if (rest.length > 0) return null;
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.map((group) => Number.parseInt(group, 16).toString(16));
}
