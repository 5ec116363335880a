/**
 * Sessions of a cluster follower (docs/replication.md): reads run locally, after waiting for the
 * commit version a bookmark names (read-your-own-writes); statements that change a graph or a
 * schema, and administration commands, run on the leader as the caller (leader-client.ts); after
 * an administration command the follower waits until it applied the `system` log that far. An
 * explicit transaction runs locally until its first write; from then on it runs on the leader (the
 * reads before it were served from this member, which read committed allows).
 */
import type { Result, Session as DriverSession, Transaction as DriverTransaction } from 'neo4j-driver';
import neo4j from 'neo4j-driver';
import {
  type ClusterNode,
  type CypherValue,
  type QueryParameters,
  type ResultStream,
  type ResultSummary,
  type Session,
  type SessionOptions,
  type Transaction,
  type TransactionOptions,
  graphError,
} from '../../engine/index.js';
import { fromDriver, toDriver, type DriverModule } from '../../cli/shell/remote-values.js';
import type { LeaderClient } from './leader-client.js';

const types = neo4j.types as unknown as DriverModule['types'];
/** How long a read waits for the version of a bookmark before failing (ms). */
const BOOKMARK_WAIT_MS = 30_000;

/** The commit version a graphdb bookmark names for `database` (`graphdb:<db>:<version>`), or null. */
export function bookmarkVersion(bookmark: string, database: string): bigint | null {
  const match = /^graphdb:(.+):(\d+)$/.exec(bookmark);
  if (match === null || match[1] !== database) return null;
  return BigInt(match[2]!);
}

function isParameterMap(parameters: QueryParameters): parameters is ReadonlyMap<string, CypherValue> {
  return parameters instanceof Map;
}

function parametersFor(parameters: QueryParameters | undefined): Record<string, unknown> {
  if (parameters === undefined) return {};
  const entries: Iterable<[string, CypherValue]> = isParameterMap(parameters) ? parameters : Object.entries(parameters);
  const converted: Record<string, unknown> = {};
  for (const [k, v] of entries) converted[k] = toDriver(v, types);
  return converted;
}

function metadataFor(options: TransactionOptions | undefined): Record<string, unknown> | undefined {
  if (options?.metadata === undefined) return undefined;
  return Object.fromEntries([...options.metadata].map(([k, v]) => [k, toDriver(v, types)]));
}

function asGraphError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('Neo.')) return graphError(code, (error as Error).message);
  return error;
}

/** A result the leader produced, fully read, as the engine's ResultStream. */
async function remoteResult(database: string, run: Promise<Result> | Result, bookmark: () => string | undefined): Promise<ResultStream> {
  let result;
  try {
    result = await run;
  } catch (error) {
    throw asGraphError(error);
  }
  const records = result.records.map((record) => record.keys.map((_, i) => fromDriver(record.get(i), types)));
  const s = result.summary;
  const updates = s.counters.updates();
  const summary: ResultSummary = {
    database,
    queryType: (s.queryType as ResultSummary['queryType'] | undefined) ?? 'w',
    counters: {
      nodesCreated: updates.nodesCreated ?? 0,
      nodesDeleted: updates.nodesDeleted ?? 0,
      relationshipsCreated: updates.relationshipsCreated ?? 0,
      relationshipsDeleted: updates.relationshipsDeleted ?? 0,
      propertiesSet: updates.propertiesSet ?? 0,
      labelsAdded: updates.labelsAdded ?? 0,
      labelsRemoved: updates.labelsRemoved ?? 0,
      indexesAdded: updates.indexesAdded ?? 0,
      indexesRemoved: updates.indexesRemoved ?? 0,
      constraintsAdded: updates.constraintsAdded ?? 0,
      constraintsRemoved: updates.constraintsRemoved ?? 0,
      systemUpdates: s.counters.systemUpdates(),
      containsUpdates: s.counters.containsUpdates(),
    },
    notifications: [],
    resultAvailableAfter: Number(s.resultAvailableAfter ?? 0),
    resultConsumedAfter: Number(s.resultConsumedAfter ?? 0),
  };
  const keys = result.records[0]?.keys.map(String) ?? [];
  let position = 0;
  const stream: ResultStream = {
    keys,
    pull(n) {
      const end = n < 0 ? records.length : Math.min(records.length, position + n);
      const batch = records.slice(position, end);
      position = end;
      return Promise.resolve({ records: batch, hasMore: position < records.length });
    },
    discard() {
      position = records.length;
      return Promise.resolve(summary);
    },
    summary: () => summary,
    get bookmark() {
      return bookmark();
    },
  };
  return stream;
}

/** What a follower session needs besides the local session. */
/**
 * Waits, bounded, until this member applied the system log the leader just extended, so that an
 * administration command's effect is visible here once it returns. The command already committed on
 * the leader: a wait that runs out is not an error, since a retryable failure would make drivers run
 * it again (CREATE USER would then fail with "already exists", GRANT run twice).
 */
async function awaitAdministrationApplied(services: ForwardingServices): Promise<void> {
  await services.member.awaitLogEnd('system', BOOKMARK_WAIT_MS).catch(() => undefined);
}

export interface ForwardingServices {
  readonly member: ClusterNode;
  readonly leader: LeaderClient;
  /** True when `query` changes a graph, a schema or the DBMS (GraphDB.statementWrites). */
  statementWrites(query: string): boolean;
  /** True when `query` changes users, roles, privileges or databases (GraphDB.statementAdministers). */
  statementAdministers(query: string): boolean;
}

/** A session on a cluster member that forwards writes when this member follows. */
export class ForwardingSession implements Session {
  private remote: DriverSession | null = null;
  private bookmark: string | null;
  private readonly bookmarks: string[];

  constructor(
    private readonly local: Session,
    private readonly options: SessionOptions,
    private readonly services: ForwardingServices,
  ) {
    this.bookmarks = [...(options.bookmarks ?? [])];
    this.bookmark = this.bookmarks[this.bookmarks.length - 1] ?? null;
  }

  get database(): string {
    return this.local.database;
  }

  /** True when statements that write must go to the leader. */
  private get follows(): boolean {
    return this.services.member.replicates(this.database) && !this.services.member.leading;
  }

  /** Waits until this member applied every commit the given bookmarks name. */
  async awaitBookmarks(extra: readonly string[] | undefined): Promise<void> {
    let target = 0n;
    for (const bookmark of [...this.bookmarks, ...(extra ?? [])]) {
      const version = bookmarkVersion(bookmark, this.database);
      if (version !== null && version > target) target = version;
    }
    if (target > 0n) await this.services.member.awaitVersion(this.database, target, BOOKMARK_WAIT_MS);
  }

  /** The driver session on the leader, opened on first use with this session's bookmarks. */
  async leaderSession(): Promise<DriverSession> {
    if (this.remote === null) {
      const driver = await this.services.leader.driverFor(this.options.security?.username ?? null);
      this.remote = driver.session({ database: this.database, defaultAccessMode: neo4j.session.WRITE, bookmarks: this.bookmarks });
    }
    return this.remote;
  }

  /** Records the bookmark of a commit on the leader. */
  noteRemoteBookmark(): string | undefined {
    const latest = this.remote?.lastBookmarks().at(-1);
    if (latest !== undefined) {
      this.bookmark = latest;
      this.bookmarks.push(latest);
    }
    return latest;
  }

  async run(query: string, parameters?: QueryParameters, options?: TransactionOptions): Promise<ResultStream> {
    if (this.follows && options?.mode !== 'READ' && this.services.statementWrites(query)) {
      const session = await this.leaderSession();
      const metadata = metadataFor(options);
      const result = await remoteResult(
        this.database,
        session.run(query, parametersFor(parameters), {
          ...(metadata === undefined ? {} : { metadata }),
          ...(options?.timeoutMs ? { timeout: options.timeoutMs } : {}),
        }),
        () => this.noteRemoteBookmark(),
      );
      // An administration command's effect (a user, a database) is visible here once it returns, as on the leader.
      if (this.services.statementAdministers(query)) await awaitAdministrationApplied(this.services);
      return result;
    }
    await this.awaitBookmarks(options?.bookmarks);
    const result = await this.local.run(query, parameters, options);
    return this.tracked(result);
  }

  private tracked(result: ResultStream): ResultStream {
    const remember = (bookmark: string): void => {
      this.bookmark = bookmark;
    };
    return {
      keys: result.keys,
      pull: (n) => result.pull(n),
      discard: () => result.discard(),
      summary: () => result.summary(),
      get bookmark() {
        const bookmark = result.bookmark;
        if (bookmark !== undefined) remember(bookmark);
        return bookmark;
      },
    };
  }

  async beginTransaction(options: TransactionOptions = {}): Promise<Transaction> {
    await this.awaitBookmarks(options.bookmarks);
    const local = await this.local.beginTransaction(options);
    if (!this.follows || options.mode === 'READ') return this.trackedTransaction(local);
    return new ForwardingTransaction(this, local, options, this.services);
  }

  private trackedTransaction(local: Transaction): Transaction {
    return {
      id: local.id,
      run: (query, parameters) => local.run(query, parameters),
      commit: async () => {
        const bookmark = await local.commit();
        this.bookmark = bookmark;
        return bookmark;
      },
      rollback: () => local.rollback(),
      get isOpen() {
        return local.isOpen;
      },
    };
  }

  /** Sets the session's last bookmark (a transaction committed). */
  committed(bookmark: string): void {
    this.bookmark = bookmark;
  }

  lastBookmark(): string | null {
    return this.bookmark ?? this.local.lastBookmark();
  }

  async close(): Promise<void> {
    await this.remote?.close();
    this.remote = null;
    await this.local.close();
  }
}

/** An explicit transaction on a follower: local until its first write, then on the leader. */
class ForwardingTransaction implements Transaction {
  private remote: DriverTransaction | null = null;
  private open = true;
  /** True once an administration command ran on the leader: the commit waits until this member applied it. */
  private administered = false;

  constructor(
    private readonly session: ForwardingSession,
    private readonly local: Transaction,
    private readonly options: TransactionOptions,
    private readonly services: ForwardingServices,
  ) {}

  get id(): string {
    return this.local.id;
  }

  get isOpen(): boolean {
    return this.open;
  }

  async run(query: string, parameters?: QueryParameters): Promise<ResultStream> {
    if (this.remote === null && this.services.statementWrites(query)) {
      if (this.local.isOpen) await this.local.rollback();
      const driverSession = await this.session.leaderSession();
      const metadata = metadataFor(this.options);
      this.remote = driverSession.beginTransaction({
        ...(metadata === undefined ? {} : { metadata }),
        ...(this.options.timeoutMs ? { timeout: this.options.timeoutMs } : {}),
      });
    }
    if (this.remote !== null) {
      if (this.services.statementAdministers(query)) this.administered = true;
      return remoteResult(this.session.database, this.remote.run(query, parametersFor(parameters)), () => undefined);
    }
    return this.local.run(query, parameters);
  }

  async commit(): Promise<string> {
    this.open = false;
    if (this.remote === null) {
      const bookmark = await this.local.commit();
      this.session.committed(bookmark);
      return bookmark;
    }
    try {
      await this.remote.commit();
    } catch (error) {
      throw asGraphError(error);
    }
    if (this.administered) await awaitAdministrationApplied(this.services);
    const bookmark = this.session.noteRemoteBookmark() ?? '';
    return bookmark;
  }

  async rollback(): Promise<void> {
    this.open = false;
    if (this.remote !== null) {
      await this.remote.rollback().catch(() => undefined);
      return;
    }
    await this.local.rollback();
  }
}
