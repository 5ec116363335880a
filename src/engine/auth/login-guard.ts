/**
 * Login rate limiting and lockout. Failed attempts are counted per username and per client IP
 * inside a sliding window; a username with too many failures is locked for a while, and an IP
 * with too many failures is refused until its window passes. A successful login clears the
 * username's failures. Refusals raise `AuthenticationRateLimit` without checking the password.
 */
import { GraphError, StatusCodes } from '../errors/index.js';

/** Limits of the guard. */
export interface LoginGuardOptions {
  /** Failures of one username within `windowMs` that lock it (default 5). */
  readonly maxFailuresPerUser?: number;
  /** Failures from one IP within `windowMs` after which it is refused (default 20). */
  readonly maxFailuresPerIp?: number;
  readonly windowMs?: number;
  /** How long a locked username stays locked (default 15 minutes). */
  readonly lockoutMs?: number;
  readonly now?: () => number;
}

interface Counter {
  failures: number[];
  lockedUntil: number;
}

/** Too many failed logins. */
export class AuthenticationRateLimit extends GraphError {
  constructor(message: string) {
    super(StatusCodes.AuthenticationRateLimit, message);
    this.name = 'AuthenticationRateLimit';
  }
}

/** Tracks failed logins. */
export class LoginGuard {
  private readonly users = new Map<string, Counter>();
  private readonly ips = new Map<string, Counter>();
  private readonly maxPerUser: number;
  private readonly maxPerIp: number;
  private readonly windowMs: number;
  private readonly lockoutMs: number;
  private readonly now: () => number;

  constructor(options: LoginGuardOptions = {}, private readonly onRefused: () => void = () => {}) {
    this.maxPerUser = options.maxFailuresPerUser ?? 5;
    this.maxPerIp = options.maxFailuresPerIp ?? 20;
    this.windowMs = options.windowMs ?? 15 * 60_000;
    this.lockoutMs = options.lockoutMs ?? 15 * 60_000;
    this.now = options.now ?? Date.now;
  }

  private recent(counter: Counter | undefined): number {
    if (!counter) return 0;
    const since = this.now() - this.windowMs;
    counter.failures = counter.failures.filter((t) => t > since);
    return counter.failures.length;
  }

  /** Throws AuthenticationRateLimit when the username is locked or the IP is over its limit. */
  check(username: string | null, ip: string | null): void {
    const user = username === null ? undefined : this.users.get(username);
    if (user && user.lockedUntil > this.now()) {
      this.onRefused();
      throw new AuthenticationRateLimit('The account is locked after too many failed login attempts; try again later.');
    }
    if (ip !== null && this.recent(this.ips.get(ip)) >= this.maxPerIp) {
      this.onRefused();
      throw new AuthenticationRateLimit('Too many failed login attempts from this address; try again later.');
    }
  }

  /** Counts a failure; true when it locked the username. */
  recordFailure(username: string | null, ip: string | null): boolean {
    const at = this.now();
    if (ip !== null) {
      const counter = this.ips.get(ip) ?? { failures: [], lockedUntil: 0 };
      counter.failures.push(at);
      this.ips.set(ip, counter);
    }
    if (username === null) return false;
    const counter = this.users.get(username) ?? { failures: [], lockedUntil: 0 };
    counter.failures.push(at);
    this.users.set(username, counter);
    if (this.recent(counter) >= this.maxPerUser) {
      counter.lockedUntil = at + this.lockoutMs;
      counter.failures = [];
      return true;
    }
    return false;
  }

  /** Clears the username's failures. */
  recordSuccess(username: string): void {
    this.users.delete(username);
  }
}
