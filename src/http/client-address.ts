import { isIPv6 } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Whom a request counts against when it carries no valid API key: the client's address as Fastify sees it (the
 * socket's peer, or what a trusted proxy's X-Forwarded-For says; app.ts's trustProxy). An IPv6 client counts by
 * its /64, the block one subscriber is given, so that walking through its own addresses gains it nothing; an IPv4
 * address written as IPv6 (::ffff:192.0.2.1) counts as itself.
 */
export function clientAddress(request: FastifyRequest): string {
  return addressKey(request.ip);
}

export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  return `${expandIPv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, written out in lower case without leading zeros. */
function expandIPv6(ip: string): string[] {
  const [head = '', tail] = ip.toLowerCase().replace(/%.*$/, '').split('::') as [string, string | undefined];
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // A dotted IPv4 ending (64:ff9b::192.0.2.1) stands for the last two groups.
  const dotted = [...left, ...right].some((g) => g.includes('.')) ? 1 : 0;
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length - dotted).fill('0');
  return [...left, ...middle, ...right].map((g) => g.replace(/^0+(?=.)/, ''));
}

/** The loopback addresses: a request from one of them was made on this machine. */
export function isLoopback(ip: string): boolean {
  return /^127\./.test(ip) || ip === '::1' || /^::ffff:127\./i.test(ip);
}
