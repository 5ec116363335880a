/**
 * Bolt connections from a follower to the leader (neo4j-driver), one driver per (leader, user):
 * forwarded statements run on the leader as the caller, authenticated with a short-lived access
 * token the follower signs for that user with the cluster's shared JWT secret, so the leader
 * applies the caller's own roles and privileges.
 */
import neo4j, { type AuthToken, type Driver } from 'neo4j-driver';
import type { AuthService } from '../../engine/auth/index.js';
import { StatusCodes, TransientError, type ClusterNode } from '../../engine/index.js';

/** Seconds a forwarding token lives; it is renewed at half its life. */
const TOKEN_SECONDS = 300;
/** How long a forwarded write waits for a leader to be known (an election in progress). */
const LEADER_WAIT_MS = 10_000;

/** Opens sessions on the current leader for a user. */
export class LeaderClient {
  private readonly drivers = new Map<string, Driver>();
  private readonly tokens = new Map<string, { token: string; renewAt: number }>();

  constructor(
    private readonly member: ClusterNode,
    private readonly auth: () => AuthService | null,
  ) {}

  /**
   * The leader's Bolt address, waiting up to LEADER_WAIT_MS for one; when none is known (an election
   * in progress, or this member's own lease renewed late) throws a transient error, which drivers retry.
   */
  async leaderAddress(): Promise<string> {
    const deadline = Date.now() + LEADER_WAIT_MS;
    for (;;) {
      const leader = this.member.currentLeader;
      if (leader !== null && leader.nodeId !== this.member.nodeId) return leader.bolt;
      if (Date.now() > deadline) {
        throw new TransientError(StatusCodes.ReplicationFailure, 'No leader is available to take this write yet; retry.');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async credentials(username: string | null): Promise<AuthToken> {
    const auth = this.auth();
    if (auth === null || username === null) return neo4j.auth.basic('', '');
    const cached = this.tokens.get(username);
    if (cached !== undefined && cached.renewAt > Date.now()) return neo4j.auth.bearer(cached.token);
    const issued = await auth.issueUserToken(username, 'access', TOKEN_SECONDS);
    this.tokens.set(username, { token: issued.token, renewAt: Date.now() + (TOKEN_SECONDS * 1000) / 2 });
    return neo4j.auth.bearer(issued.token);
  }

  /** A driver on the leader acting as `username` (null: no authentication). */
  async driverFor(username: string | null): Promise<Driver> {
    const address = await this.leaderAddress();
    const key = `${address}\u0000${username ?? ''}`;
    const cachedToken = username === null ? undefined : this.tokens.get(username);
    let driver = this.drivers.get(key);
    if (driver !== undefined && (username === null || (cachedToken !== undefined && cachedToken.renewAt > Date.now()))) return driver;
    const auth = await this.credentials(username);
    await driver?.close();
    driver = neo4j.driver(`bolt://${address}`, auth, { useBigInt: true, maxConnectionPoolSize: 64, connectionAcquisitionTimeout: 10_000 });
    this.drivers.set(key, driver);
    return driver;
  }

  /** Closes every driver. */
  async close(): Promise<void> {
    const drivers = [...this.drivers.values()];
    this.drivers.clear();
    await Promise.all(drivers.map((d) => d.close().catch(() => undefined)));
  }
}
