/**
 * Password hashing with node's `crypto.scrypt`. A stored hash is self-describing:
 * `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>`, so cost parameters can change later without
 * invalidating existing hashes. Plain passwords are never stored.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters (N must be a power of two). */
export interface ScryptCost {
  readonly N: number;
  readonly r: number;
  readonly p: number;
}

/** Default cost: N=2^14, r=8, p=1 (about 16 MiB and tens of milliseconds per hash). */
export const DEFAULT_COST: ScryptCost = Object.freeze({ N: 16384, r: 8, p: 1 });

const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  const options: ScryptOptions = { N: cost.N, r: cost.r, p: cost.p, maxmem: 128 * cost.N * cost.r * 2 };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** True when `password` matches a hash made by `hashPassword` (constant-time comparison). */
export async function verifyPasswordHash(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
