// Where ids are minted: a kind prefix and 24 random base62 characters. Random secrets (API keys,
// session tokens) come from here too, and are stored only as `hashSecret`. One kind is derived
// instead: an event's first delivery attempts, named in SQL by event and endpoint
// (webhooks.repository.ts, `firstAttempts`), in the same shape.
import { createHash, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export const ID_PREFIXES = {
  account: 'acct',
  user: 'usr',
  apiKey: 'key',
  customer: 'cust',
  address: 'addr',
  booking: 'bk',
  invoice: 'inv',
  staff: 'staff',
  timeOff: 'toff',
  zone: 'zone',
  industry: 'ind',
  productCategory: 'pcat',
  product: 'prod',
  extra: 'extra',
  coupon: 'coupon',
  webhook: 'wh',
  event: 'evt',
  webhookDelivery: 'whd',
  refund: 're',
  paymentMethod: 'pm',
  payment: 'pay',
  oauthApp: 'app',
  subscription: 'sub',
  email: 'email',
  request: 'req',
  session: 'sess',
  grant: 'grant',
  oauthToken: 'tok',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Random bytes drawn 4 KB at a time: one system call per ~80 ids instead of one each (a
 * request id is minted on every request). Each byte is used once; the pool is never copied.
 */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

function randomByte(): number {
  if (randomOffset === randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  return randomPool[randomOffset++] as number;
}

/** Uniform base62 characters (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

export function newId(kind: IdKind): string {
  return `${ID_PREFIXES[kind]}_${randomBase62(24)}`;
}

/**
 * How a random secret (API key, client secret, session or device token, OAuth code) is stored:
 * SHA-256, hex. Our secrets carry 190+ random bits, so a fast hash is enough (no salt, no
 * Argon2: nothing to guess), and lookups by hash stay one index probe.
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
