import type { LookupAddress } from 'node:dns';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, guardedLookup, isPublicAddress, parseWebhookUrl, UnsafeUrlError } from './url-guard.ts';

const resolvesTo =
  (...addresses: string[]) =>
  async (): Promise<LookupAddress[]> =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

// Addresses a webhook may not reach (private, loopback, link-local, reserved, and those ranges
// written in IPv6), and public ones it may.
const NOT_PUBLIC = [
  '0.0.0.0',
  '10.1.2.3',
  '100.64.0.1',
  '100.127.255.254',
  '127.0.0.1',
  '127.8.9.10',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.170',
  '192.0.2.1',
  '192.168.1.1',
  '198.18.0.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::',
  '::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:8.8.8.8',
  '::127.0.0.1',
  '64:ff9b::a00:1',
  '64:ff9b::808:808',
  'fc00::1',
  'fd12:3456::1',
  'fd00:ec2::254',
  'fe80::1',
  'fec0::1',
  'ff02::1',
  '2001:db8::1',
  '2001::1',
  '2002:7f00:1::1',
  'not-an-ip',
];
const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '2606:4700:4700::1111',
  '2a00:1450::1',
];

describe('isPublicAddress', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses every address of the private IPv4 ranges, however it is written in IPv6', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    fc.assert(
      fc.property(octet, octet, octet, (b, c, d) => {
        for (const v4 of [`10.${b}.${c}.${d}`, `192.168.${c}.${d}`, `127.${b}.${c}.${d}`, `169.254.${c}.${d}`]) {
          expect(isPublicAddress(v4)).toBe(false);
          expect(isPublicAddress(`::ffff:${v4}`)).toBe(false);
        }
      }),
    );
  });
});

describe('checkWebhookUrl', () => {
  const strict = { allowPrivate: false, resolveAll: resolvesTo('93.184.216.34') };

  it.each([
    ['http://example.com/hook', 'https'],
    ['ftp://example.com/hook', 'https'],
    ['not a url', 'absolute'],
    ['https://127.0.0.1/hook', 'public'],
    ['https://[::1]/hook', 'public'],
    ['https://[::ffff:127.0.0.1]/hook', 'public'],
    ['https://[::ffff:7f00:1]/hook', 'public'],
    ['https://10.0.0.8/hook', 'public'],
    ['https://169.254.169.254/latest/meta-data', 'public'],
    ['https://100.100.100.200/', 'public'],
    ['https://0x7f.1/hook', 'public'], // the URL parser turns 0x7f.1 into 127.0.0.1
    ['https://2130706433/hook', 'public'], // and this into 127.0.0.1
    ['https://0/hook', 'public'],
  ])('refuses %s', async (url, why) => {
    await expect(checkWebhookUrl(url, strict)).rejects.toThrow(new RegExp(why));
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const mixed = { allowPrivate: false, resolveAll: resolvesTo('93.184.216.34', '10.0.0.5') };
    await expect(checkWebhookUrl('https://hooks.example.com/x', mixed)).rejects.toThrow(UnsafeUrlError);
    const v6 = { allowPrivate: false, resolveAll: resolvesTo('fd00::1') };
    await expect(checkWebhookUrl('https://hooks.example.com/x', v6)).rejects.toThrow(UnsafeUrlError);
    const none = { allowPrivate: false, resolveAll: resolvesTo() };
    await expect(checkWebhookUrl('https://hooks.example.com/x', none)).rejects.toThrow(/resolved/);
    const failing = {
      allowPrivate: false,
      resolveAll: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    };
    await expect(checkWebhookUrl('https://nowhere.invalid/x', failing)).rejects.toThrow(/resolved/);
  });

  it('refuses localhost through the real resolver', async () => {
    await expect(checkWebhookUrl('https://localhost/hook', { allowPrivate: false })).rejects.toThrow(UnsafeUrlError);
  });

  it('accepts an https URL on public addresses, and anything http(s) when private URLs are allowed', async () => {
    expect((await checkWebhookUrl('https://hooks.example.com/x?y=1', strict)).href).toBe(
      'https://hooks.example.com/x?y=1',
    );
    expect((await checkWebhookUrl('https://[2606:4700:4700::1111]/x', strict)).hostname).toBe('[2606:4700:4700::1111]');
    expect((await checkWebhookUrl('http://127.0.0.1:8080/x', { allowPrivate: true })).port).toBe('8080');
    expect(() => parseWebhookUrl('ftp://127.0.0.1/x', true)).toThrow(/https/);
  });
});

describe('guardedLookup (what the delivery agents connect through)', () => {
  const lookup = (resolveAll: () => Promise<LookupAddress[]>, options: { all?: boolean } = {}) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
      guardedLookup(resolveAll)('hooks.example.com', options, (error, address, family) =>
        resolve({ error, address, family }),
      );
    });

  it('hands the socket only checked public addresses', async () => {
    expect(await lookup(resolvesTo('93.184.216.34'))).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    const all = await lookup(resolvesTo('93.184.216.34', '2606:4700::1'), { all: true });
    expect(all.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });

  it('refuses the connection when the name now resolves to a private address (DNS rebinding)', async () => {
    const rebound = await lookup(resolvesTo('127.0.0.1'));
    expect(rebound.error?.code).toBe('EUNSAFEADDRESS');
    const metadata = await lookup(resolvesTo('93.184.216.34', '169.254.169.254'), { all: true });
    expect(metadata.error?.code).toBe('EUNSAFEADDRESS');
  });
});
