// SSRF protection for webhook URLs: https only, and every address a name resolves to must be
// public. Checked at registration, and again at delivery by the agent's `lookup`, so the
// address we checked is the address we connect to (no DNS rebinding in between).
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Ranges that are not the public Internet (IANA special-purpose registries). */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['64:ff9b::', 96], // NAT64: would reach the IPv4 address it embeds
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2001::', 23], // IETF protocol assignments (Teredo, ORCHID, benchmarking)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['3fff::', 20], // documentation
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/**
 * Only global unicast (2000::/3) is public in IPv6; this leaves out ::, ::1, IPv4-mapped and
 * IPv4-compatible addresses, unique-local fc00::/7, link-local fe80::/10 and multicast ff00::/8.
 */
const IPV6_GLOBAL_UNICAST = new BlockList();
IPV6_GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family === 6) return IPV6_GLOBAL_UNICAST.check(address, 'ipv6') && !NOT_PUBLIC.check(address, 'ipv6');
  return false;
}

/** What a refusal says a developer can do: the flag that lifts the rule, and that it is not for production. */
const FOR_DEVELOPMENT =
  'to send webhooks to your own machine or network during development, start the server with WEBHOOK_ALLOW_PRIVATE_URLS=true';

export class UnsafeUrlError extends Error {
  override name = 'UnsafeUrlError';
}

export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

const systemResolveAll: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Parses a webhook URL and checks its scheme and, when it names an IP address, that address.
 * Names are checked by `checkWebhookUrl` (registration) and `guardedLookup` (delivery).
 */
export function parseWebhookUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('url must be an absolute https URL.');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new UnsafeUrlError(
      allowPrivate
        ? 'url must use https or http.'
        : url.protocol === 'http:'
          ? `url must use https; ${FOR_DEVELOPMENT} (which also allows http).`
          : 'url must use https.',
    );
  }
  if (!allowPrivate && isIP(hostOf(url)) && !isPublicAddress(hostOf(url))) {
    throw new UnsafeUrlError(
      `url must point to a public Internet address, not a loopback, private or link-local one; ${FOR_DEVELOPMENT}.`,
    );
  }
  return url;
}

/** A name only a private network knows (a container's, say) resolves nowhere else. */
function unresolved(host: string): UnsafeUrlError {
  return new UnsafeUrlError(`url's host ${host} could not be resolved: check its spelling; ${FOR_DEVELOPMENT}.`);
}

/** Registration check: the scheme, and every address the host resolves to now. */
export async function checkWebhookUrl(
  raw: string,
  options: { allowPrivate: boolean; resolveAll?: ResolveAll },
): Promise<URL> {
  const url = parseWebhookUrl(raw, options.allowPrivate);
  const host = hostOf(url);
  if (options.allowPrivate || isIP(host)) return url;
  let addresses: LookupAddress[];
  try {
    addresses = await (options.resolveAll ?? systemResolveAll)(host);
  } catch {
    throw unresolved(host);
  }
  if (addresses.length === 0) throw unresolved(host);
  if (!addresses.every((entry) => isPublicAddress(entry.address))) {
    throw new UnsafeUrlError(
      `url must resolve only to public Internet addresses, but ${host} resolves to a loopback, private or link-local one; ${FOR_DEVELOPMENT}.`,
    );
  }
  return url;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the delivery agents: resolves, refuses the connection when any address is not
 * public, and hands the socket only the addresses it checked.
 */
export function guardedLookup(resolveAll: ResolveAll = systemResolveAll) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveAll(hostname).then(
      (addresses) => {
        const wanted =
          options.family === 4 || options.family === 'IPv4'
            ? 4
            : options.family === 6 || options.family === 'IPv6'
              ? 6
              : 0;
        const usable = addresses.filter((entry) => wanted === 0 || entry.family === wanted);
        if (usable.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
          const error: NodeJS.ErrnoException = new UnsafeUrlError(
            `url resolves to an address that is not public; delivery refused (${FOR_DEVELOPMENT}).`,
          );
          error.code = 'EUNSAFEADDRESS';
          callback(error, '', 0);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]?.address ?? '', usable[0]?.family ?? 4);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
