/**
 * The cache of recently verified passwords, so a client sending Basic credentials on every request
 * does not pay the password hashing each time. Entries are keyed by an HMAC-SHA-256 of
 * username and password under a random key made per process: the cache holds no value from which
 * a password could be recovered offline, even from a memory dump of a single run. An entry also
 * records the stored hash it was verified against, so a password change invalidates it. Bounded
 * in bytes (least recently used entries go first).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** Estimated bytes of one entry: a 44-character key, the stored hash, map overhead. */
const ENTRY_OVERHEAD = 200;

/** Verified (username, password) pairs. */
export class VerifiedPasswords {
  private readonly key = randomBytes(32);
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  /** @param maxBytes estimated bytes kept at most (`dbms.memory.auth_cache.max_size`) */
  constructor(readonly maxBytes = 2 * 1024 * 1024) {}

  private digest(username: string, password: string): string {
    return createHmac('sha256', this.key).update(username).update('\0').update(password).digest('base64');
  }

  /** True when this password was verified for this user against `passwordHash`. */
  has(username: string, password: string, passwordHash: string): boolean {
    const key = this.digest(username, password);
    const stored = this.entries.get(key);
    if (stored === undefined) return false;
    this.entries.delete(key);
    this.entries.set(key, stored);
    return stored === passwordHash;
  }

  /** Remembers a successful verification. */
  add(username: string, password: string, passwordHash: string): void {
    const key = this.digest(username, password);
    const previous = this.entries.get(key);
    if (previous !== undefined) {
      this.entries.delete(key);
      this.bytes -= ENTRY_OVERHEAD + previous.length;
    }
    this.entries.set(key, passwordHash);
    this.bytes += ENTRY_OVERHEAD + passwordHash.length;
    for (const [oldest, hash] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= ENTRY_OVERHEAD + hash.length;
    }
  }

  /** Bytes held (estimated). */
  get size(): number {
    return this.bytes;
  }

  /** Entries held. */
  get entryCount(): number {
    return this.entries.size;
  }
}
