/**
 * Login rate limiting and lockout. Failed attempts are counted per (username, source address)
 * inside a sliding window: too many failures lock that pair only, so nobody can lock a user out
 * from another address (the admin logs in from elsewhere while an attacker hammers it). Each
 * further lock of the same pair within the window doubles the lock time (backoff), up to a cap.
 * Failures are also counted per source address: an address over its limit is refused for every
 * username until its window passes. A successful login clears the pair's failures. Refusals
 * raise `AuthenticationRateLimit` without checking the password. Memory is bounded: idle
 * counters are dropped and at most `maxTrackedKeys` are kept (oldest first).
 */
import { ClientError, StatusCodes } from '../errors/index.js';

/** Limits of the guard. */
export interface LoginGuardOptions {
  /** Failures of one (username, source) within `windowMs` that lock the pair (default 5). */
  readonly maxFailuresPerUser?: number;
  /** Failures from one source within `windowMs` after which it is refused (default 20). */
  readonly maxFailuresPerIp?: number;
  /** The sliding window failures are counted in (default 15 minutes). */
  readonly windowMs?: number;
  /** How long a pair stays locked the first time (default 5 s, Neo4j's `dbms.security.auth_lock_time`). */
  readonly lockoutMs?: number;
  /** The longest lock the backoff reaches (default 15 minutes). */
  readonly maxLockoutMs?: number;
  /** Counters kept at most (default 100,000). */
  readonly maxTrackedKeys?: number;
  readonly now?: () => number;
}

interface Counter {
  failures: number[];
  lockedUntil: number;
  /** Locks of this key so far within the window (the backoff exponent). */
  locks: number;
  lastLockAt: number;
}

/** Too many failed logins. */
export class AuthenticationRateLimit extends ClientError {
  constructor(message: string) {
    super(StatusCodes.AuthenticationRateLimit, message);
    this.name = 'AuthenticationRateLimit';
  }
}

/** Tracks failed logins. */
export class LoginGuard {
  private readonly pairs = new Map<string, Counter>();
  private readonly ips = new Map<string, Counter>();
  private readonly maxPerUser: number;
  private readonly maxPerIp: number;
  private readonly windowMs: number;
  private readonly lockoutMs: number;
  private readonly maxLockoutMs: number;
  private readonly maxKeys: number;
  private readonly now: () => number;

  constructor(
    options: LoginGuardOptions = {},
    private readonly onRefused: () => void = () => {},
  ) {
    this.maxPerUser = options.maxFailuresPerUser ?? 5;
    this.maxPerIp = options.maxFailuresPerIp ?? 20;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.lockoutMs = options.lockoutMs ?? 5_000;
    this.maxLockoutMs = Math.max(this.lockoutMs, options.maxLockoutMs ?? 15 * 60_000);
    this.maxKeys = options.maxTrackedKeys ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  private static pairKey(username: string, ip: string | null): string {
    return `${ip ?? ''}\u0000${username}`;
  }

  private recent(counter: Counter | undefined): number {
    if (!counter) return 0;
    const since = this.now() - this.windowMs;
    counter.failures = counter.failures.filter((t) => t > since);
    return counter.failures.length;
  }

  private counter(map: Map<string, Counter>, key: string): Counter {
    let counter = map.get(key);
    if (counter === undefined) {
      if (map.size >= this.maxKeys) this.evict(map);
      counter = { failures: [], lockedUntil: 0, locks: 0, lastLockAt: 0 };
    } else {
      map.delete(key);
    }
    map.set(key, counter);
    return counter;
  }

  /** Drops idle counters, then the least recently touched ones if still full. */
  private evict(map: Map<string, Counter>): void {
    const at = this.now();
    for (const [key, counter] of map) {
      if (counter.lockedUntil <= at && this.recent(counter) === 0 && at - counter.lastLockAt > this.windowMs) map.delete(key);
    }
    for (const key of map.keys()) {
      if (map.size < this.maxKeys) break;
      map.delete(key);
    }
  }

  /** Throws AuthenticationRateLimit when the (username, ip) pair is locked or the ip is over its limit. */
  check(username: string | null, ip: string | null): void {
    const pair = username === null ? undefined : this.pairs.get(LoginGuard.pairKey(username, ip));
    if (pair && pair.lockedUntil > this.now()) {
      this.onRefused();
      throw new AuthenticationRateLimit(
        'The client has provided incorrect authentication details too many times in a row; try again later.',
      );
    }
    if (ip !== null && this.recent(this.ips.get(ip)) >= this.maxPerIp) {
      this.onRefused();
      throw new AuthenticationRateLimit('Too many failed login attempts from this address; try again later.');
    }
  }

  /** Counts a failure; true when it locked the (username, ip) pair. */
  recordFailure(username: string | null, ip: string | null): boolean {
    const at = this.now();
    if (ip !== null) this.counter(this.ips, ip).failures.push(at);
    if (username === null) return false;
    const counter = this.counter(this.pairs, LoginGuard.pairKey(username, ip));
    counter.failures.push(at);
    if (this.recent(counter) < this.maxPerUser) return false;
    if (at - counter.lastLockAt > this.windowMs + this.maxLockoutMs) counter.locks = 0;
    counter.lockedUntil = at + Math.min(this.maxLockoutMs, this.lockoutMs * 2 ** counter.locks);
    counter.locks++;
    counter.lastLockAt = at;
    counter.failures = [];
    return true;
  }

  /** Clears the failures (and backoff) of the (username, ip) pair. */
  recordSuccess(username: string, ip: string | null): void {
    this.pairs.delete(LoginGuard.pairKey(username, ip));
  }
}
