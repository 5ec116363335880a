/**
 * Leadership of a cluster: one key in a JetStream KV bucket whose values expire after the lease
 * TTL. A member takes it with compare-and-set (`create` succeeds only when the key is absent),
 * keeps it alive by updating it at its own revision, and loses it when an update fails or the
 * TTL passes without one.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

/** What a leader announces. */
export interface LeaderInfo {
  readonly nodeId: string;
  readonly bolt: string;
  readonly http: string;
  /** Increases with each leadership change (the KV revision that took it). */
  readonly term: number;
}

const KEY = 'leader';

function decode(bytes: Uint8Array): Omit<LeaderInfo, 'term'> | null {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Omit<LeaderInfo, 'term'>;
    return typeof value.nodeId === 'string' ? value : null;
  } catch {
    return null;
  }
}

/** The lease of one cluster. */
export class LeaderLease {
  private revision = 0;
  private renewedAt = 0;

  private constructor(
    private readonly kv: KV,
    private readonly ttlMs: number,
    private readonly self: Omit<LeaderInfo, 'term'>,
  ) {}

  /** Opens (creating when missing) the bucket of `cluster`. */
  static async open(
    nc: NatsConnection,
    cluster: string,
    replicas: number,
    ttlMs: number,
    self: Omit<LeaderInfo, 'term'>,
  ): Promise<LeaderLease> {
    const kv = await new Kvm(nc).create(`graphdb_${cluster.replace(/[^A-Za-z0-9_-]/g, '_')}_leader`, {
      ttl: ttlMs,
      replicas,
      history: 1,
      allow_direct: false,
    });
    return new LeaderLease(kv, ttlMs, self);
  }

  /** The current leader (null when nobody holds the lease). */
  async current(): Promise<LeaderInfo | null> {
    const entry = await this.kv.get(KEY);
    if (entry === null || entry.operation !== 'PUT' || entry.value.length === 0) return null;
    const info = decode(entry.value);
    return info === null ? null : { ...info, term: entry.revision };
  }

  /** Tries to take the lease; true when this member now holds it. */
  async acquire(): Promise<boolean> {
    try {
      this.revision = await this.kv.create(KEY, JSON.stringify(this.self));
      this.renewedAt = Date.now();
      return true;
    } catch {
      return false;
    }
  }

  /** Renews a held lease; false when it was lost (someone else holds it, or it expired). */
  async renew(): Promise<boolean> {
    const started = Date.now();
    try {
      this.revision = await this.kv.update(KEY, JSON.stringify(this.self), this.revision, Math.max(250, this.ttlMs / 3));
      this.renewedAt = started;
      return true;
    } catch {
      return false;
    }
  }

  /** The term (KV revision) of this member's leadership. */
  get term(): number {
    return this.revision;
  }

  /** True while the lease, as last renewed, has not expired (with a margin for clock drift). */
  get valid(): boolean {
    return this.revision > 0 && Date.now() - this.renewedAt < this.ttlMs * 0.8;
  }

  /** Gives the lease up (clean shutdown) so another member takes over at once. */
  async release(): Promise<void> {
    if (this.revision === 0) return;
    const revision = this.revision;
    this.revision = 0;
    await this.kv.delete(KEY, { previousSeq: revision }).catch(() => undefined);
  }

  /** Forgets a lease that was lost. */
  lost(): void {
    this.revision = 0;
  }
}
