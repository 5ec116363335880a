/**
 * The proxy trust boundary (docs/http.md): `X-Forwarded-*`, `Forwarded`, `X-Real-IP` and
 * forwarded-prefix headers are honoured only when the immediate peer is a trusted proxy; from any
 * other peer they are removed before routing, authentication and logging see the request.
 */
import net from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** Matches peer addresses against a list of IPs and CIDR ranges. */
export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly empty: boolean;

  constructor(entries: readonly string[]) {
    this.empty = entries.length === 0;
    for (const entry of entries) {
      const [address, bits] = entry.split('/') as [string, string | undefined];
      const family = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(bits), family);
    }
  }

  /** True when `address` (an IPv4, IPv6 or IPv4-mapped IPv6 address) is trusted. */
  trusts(address: string | undefined): boolean {
    if (this.empty || address === undefined) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped !== null) return this.list.check(mapped[1]!, 'ipv4');
    return this.list.check(address, net.isIPv6(address) ? 'ipv6' : 'ipv4');
  }
}

/** Header names stripped from untrusted peers. */
export function isForwardingHeader(name: string): boolean {
  return name.startsWith('x-forwarded-') || name === 'x-real-ip' || name === 'forwarded' || name === 'x-forwarded-prefix';
}

/** Removes every forwarding header in place; returns how many were removed. */
export function stripForwardingHeaders(headers: IncomingHttpHeaders): number {
  let removed = 0;
  for (const name of Object.keys(headers)) {
    if (isForwardingHeader(name)) {
      delete headers[name];
      removed++;
    }
  }
  return removed;
}
