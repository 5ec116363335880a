/**
 * Who is in the cluster: each member puts its id and addresses under its own key of a JetStream
 * KV bucket at every lease round; values expire after the bucket TTL, so a member that stopped
 * announcing drops out of the routing table.
 */
import { Kvm, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';

/** One member's addresses. */
export interface MemberInfo {
  readonly nodeId: string;
  readonly bolt: string;
  readonly http: string;
}

function keyOf(nodeId: string): string {
  return nodeId.replace(/[^A-Za-z0-9_=-]/g, (c) => `=${c.charCodeAt(0).toString(16)}`);
}

/** The members bucket of one cluster. */
export class MemberRegistry {
  private known: MemberInfo[] = [];

  private constructor(private readonly kv: KV) {}

  /** Opens (creating when missing) the bucket of `cluster`; announcements live `ttlMs`. */
  static async open(nc: NatsConnection, cluster: string, replicas: number, ttlMs: number): Promise<MemberRegistry> {
    const kv = await new Kvm(nc).create(`graphdb_${cluster.replace(/[^A-Za-z0-9_-]/g, '_')}_members`, {
      ttl: ttlMs,
      replicas,
      history: 1,
      allow_direct: false,
    });
    return new MemberRegistry(kv);
  }

  /** Announces `self` and refreshes the list of live members. */
  async refresh(self: MemberInfo): Promise<void> {
    await this.kv.put(keyOf(self.nodeId), JSON.stringify(self));
    const members: MemberInfo[] = [];
    for await (const key of await this.kv.keys()) {
      const entry = await this.kv.get(key);
      if (entry === null || entry.operation !== 'PUT' || entry.value.length === 0) continue;
      try {
        const info = JSON.parse(new TextDecoder().decode(entry.value)) as MemberInfo;
        if (typeof info.nodeId === 'string' && typeof info.bolt === 'string') members.push(info);
      } catch {
        // a value this build cannot read is not a member
      }
    }
    this.known = members.sort((a, b) => (a.nodeId < b.nodeId ? -1 : 1));
  }

  /** Live members as of the last refresh. */
  get members(): readonly MemberInfo[] {
    return this.known;
  }
}
