/**
 * The engine facade: open a data directory, get sessions, administer databases, read stats and
 * subscribe to committed changes. Embedded use:
 *
 * ```ts
 * const db = await GraphDB.open({ dataDir: './data' });
 * const session = db.session();
 * const result = await session.run('MATCH (n) RETURN count(n) AS c');
 * const { records } = await result.pull(-1);
 * await db.close();
 * ```
 */
import { MemoryPool, resolveMemoryLimits, type MemoryLimitSettings } from './cypher/memory/memory-tracker.js';
import { ImportFiles, type FileAccessSettings } from './files/import-files.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StorageEngine } from './storage/storage-engine.js';
import { DatabaseServices } from './database-services.js';
import type { StorageLogger } from './storage/storage-engine.js';
import type { DatabaseStore, ReplicationGate } from './storage/database-store.js';
import { materializeChanges, type EntityChange } from './entity-changes.js';
import { registerInternals } from './engine-internals.js';
import type { CypherValue } from './values/types.js';
import type { SyncMode } from './storage/sqlite/connection.js';
import { createFunctionRegistry } from './cypher/functions/index.js';
import { regexCacheStats, setRegexCacheMaxBytes } from './cypher/functions/user-regex.js';
import type { FunctionRegistry } from './cypher/functions/registry.js';
import { createProcedureRegistry } from './cypher/procedures/index.js';
import { ApocScheduler } from './cypher/procedures/apoc/scheduler.js';
import type { ProcedureRegistry, ProcedureDefinition } from './cypher/procedures/registry.js';
import type { AdminHooks, DatabaseInfo } from './cypher/runtime/admin-hooks.js';
import type { VectorCandidateScan, VectorTopKRequest } from './cypher/runtime/vector-top-k-source.js';
import type { GraphReader } from './storage/graph-store.js';
import { QueryCache } from './cypher/query-cache.js';
import { registrationProcedure } from './cypher/runtime/table-procedures.js';
import { EngineSession, type DatabaseSession, type SessionHost } from './session/engine-session.js';
import { compositeAccessError } from './session/composite/composite-graphs.js';
import { CompositeSession } from './session/composite/composite-session.js';
import { constituentName } from './catalog/composite-catalog.js';
import { ReadPool } from './session/read-pool/read-pool.js';
import type { EngineServices } from './session/statement-execution.js';
import { EngineSearch, type GraphDBSearchOptions } from './graphdb-search.js';
import type { DatabaseSearch } from './search/index.js';
import { searchProcedures } from './cypher/procedures/search.js';
import type { SecurityAdmin } from './cypher/runtime/security-admin.js';
import { authorizeStatement, statementAdministers, statementWritesGraph } from './session/authorize-statement.js';
import type { ClusterHooks, ClusterNode, ClusterOptions } from './cluster/cluster-node.js';
import { ClientError, TransientError } from './errors/index.js';
import { StatusCodes } from './errors/status-codes.js';
import type { SecurityContext, SessionOptions } from './session/types.js';
import { importGraph, type ImportOptions } from './transfer/transfer.js';
import type { ImportSummary } from './transfer/import-sink.js';
import { BulkLoader, type BulkLoadOptions } from './storage/bulk-load.js';
import { QueryAdmission, admitUnderLimits } from './catalog/limit-enforcement.js';
import { TransactionRegistry } from './session/transaction-registry.js';
import type { SettingInfo } from './config/setting-rows.js';
import { DEFAULT_CONFIG } from './config/defaults.js';
import { sessionRunner, type CypherRunner } from './memory/cypher-runner.js';
import { decayFunctions } from './memory/decay-functions.js';
import { MemoryDecay, type MemoryDecayOptions } from './memory/memory-decay.js';
import type { MemoryToolHost } from './memory/tool-host.js';

/** Default bound of an explicit transaction's write set (bytes). */
const DEFAULT_MAX_WRITE_SET_BYTES = 256 * 1024 * 1024;

/** The entity-lock wait of `options` in ms (0 means no limit: Infinity). */
function lockTimeout(options: GraphDBOptions): number {
  const ms = options.lockAcquisitionTimeoutMs ?? options.writeLockTimeoutMs ?? 10_000;
  return ms > 0 ? ms : Infinity;
}

/** Options of `GraphDB.open`. */
export interface GraphDBOptions {
  /** Data directory; omitted: a temporary directory deleted on close (in-memory-like use). */
  readonly dataDir?: string;
  /** Default database name (default `graphdb`). */
  readonly defaultDatabase?: string;
  /** Built-in alias of the default database (default `neo4j`; null: none), see `StorageEngineOptions.homeAlias`. */
  readonly homeAlias?: string | null;
  /** Default transaction timeout in ms (Neo4j's `db.transaction.timeout`); 0 or omitted means none. */
  readonly transactionTimeoutMs?: number;
  /** Idle time after which an open explicit transaction is rolled back, in ms; 0 or omitted means none. */
  readonly transactionIdleTimeoutMs?: number;
  /**
   * How long a transaction waits for an entity lock another transaction holds (Neo4j's
   * `db.lock.acquisition.timeout`), in ms; 0 means no limit. Default: `writeLockTimeoutMs` (10 s).
   */
  readonly lockAcquisitionTimeoutMs?: number;
  /** Bytes an explicit transaction's write set may hold (default 256 MiB); past it the statement fails with MemoryPoolOutOfMemoryError. */
  readonly maxWriteSetBytes?: number;
  /** Default time zone of temporal functions (default `UTC`). */
  readonly defaultTimeZone?: string;
  readonly syncMode?: SyncMode;
  /** Small SQLite page caches, trading speed for memory (`resources.low_memory`); default false. */
  readonly lowMemory?: boolean;
  /** How long a writer waits for a database's write lock before a transient WriteConflict. */
  readonly writeLockTimeoutMs?: number;
  readonly logger?: StorageLogger;
  /**
   * Test support: adds `CALL tck.registerProcedure(signature, columns, rows)`, which defines
   * fixed-table procedures (the openCypher TCK's `there exists a procedure` steps over Bolt).
   */
  readonly testProcedures?: boolean;
  /**
   * Search services (BM25, vectors, hybrid, embeddings) and the `db.index.fulltext/vector.queryNodes`
   * procedures; default on with the built-in settings, built on first use. `false` disables them.
   */
  readonly search?: GraphDBSearchOptions | false;
  /**
   * File and URL access of queries (LOAD CSV, APOC load/import/export): the import directory
   * (default `<dataDir>/import`), whether `file:` URLs are allowed (default true) and the
   * HTTP(S) URL prefixes that may be fetched (default none).
   */
  readonly files?: Partial<FileAccessSettings>;
  /**
   * Memory decay (docs/ai-memory.md): settings, clock and timers. Default: the built-in
   * `memory_decay` settings (disabled: `decayScore()` works, nothing is recalculated or archived).
   */
  readonly memoryDecay?: MemoryDecayOptions;
  /** Memory limits of transactions (`memory.transaction_max`, `memory.transaction_total_max`); default derived from the heap limit. */
  readonly memory?: MemoryLimitSettings;
  /** Estimated heap bytes the query and plan cache may hold (`dbms.memory.query_cache.max_size`, default 64 MiB). */
  readonly queryCacheMaxBytes?: number;
  /**
   * Estimated bytes of compiled regular expressions kept (`dbms.memory.regex_cache.max_size`,
   * default 16 MiB). The pattern cache is one per thread: the engine opened last sets it.
   */
  readonly regexCacheMaxBytes?: number;
  /**
   * Worker threads that run auto-commit reads on connections of their own
   * (`server.read_workers`, docs/robustness.md); default 0: every statement runs on this thread.
   */
  readonly readWorkers?: number;
}

/** What a cache holds: entries and estimated bytes, against its byte bound. */
export interface CacheFigures {
  readonly entries: number;
  readonly bytes: number;
  readonly maxBytes: number;
}

/** Counts of one database (the HTTP `/stats` shape). */
export interface GraphStats {
  readonly database: string;
  readonly nodeCount: number;
  readonly relationshipCount: number;
  readonly labels: readonly { readonly label: string; readonly count: number }[];
  readonly dataSizeBytes: number;
  readonly version: bigint;
}

/** The memory pool of an engine and its per-transaction limit. */
function memoryServices(settings: MemoryLimitSettings | undefined): { pool: MemoryPool; transactionMax: number } {
  const limits = resolveMemoryLimits(settings);
  return { pool: new MemoryPool(limits.totalMax), transactionMax: limits.transactionMax };
}

/** The gate of a database a cluster member does not replicate yet: every local commit is refused. */
const JOINING_GATE: ReplicationGate = {
  append: () =>
    Promise.reject(new ClientError(StatusCodes.NotALeader, 'This member is joining its cluster: no write operations are allowed yet.')),
};

/** An open graph database engine. */
export class GraphDB {
  /** Scalar and aggregate functions (add extension functions here). */
  readonly functions: FunctionRegistry;
  /** Procedures callable with CALL (change through `registerProcedure` so cached plans see it). */
  readonly procedures: ProcedureRegistry;
  private readonly queryCache: QueryCache;
  private readonly services: EngineServices;
  private readonly host: SessionHost;
  /** Read workers of auto-commit reads (null: none). */
  private readonly readPool: ReadPool | null;
  private closed = false;
  private readonly searchHost: EngineSearch | null;
  private securityAdministration: ((security: SecurityContext | undefined) => SecurityAdmin) | null = null;
  /** Running transactions of every session (SHOW/TERMINATE TRANSACTIONS). */
  readonly transactions = new TransactionRegistry();
  private settingsSource: (() => readonly SettingInfo[]) | null = null;
  /** This engine's cluster membership (docs/replication.md); null when not replicated. */
  private member: ClusterNode | null = null;
  /** Called after a replicated change of the system database (`onSystemReplicated`). */
  private readonly systemListeners: (() => Promise<void>)[] = [];
  /** Memory decay: the model, its clock, the periodic recalculation. */
  readonly memoryDecay: MemoryDecay;
  private dbServices: DatabaseServices | null = null;
  /** Background jobs of apoc.periodic.submit/repeat/countdown, cancelled on close. */
  private readonly apocScheduler = new ApocScheduler((database, statement, parameters) =>
    this.runBackground(database, statement, parameters),
  );

  private constructor(
    /** The storage engine; the engine's own modules reach it through engine-internals.ts. */
    private readonly storage: StorageEngine,
    private readonly options: GraphDBOptions,
    private readonly temporaryDir: string | null,
    memoryDecay: MemoryDecay,
  ) {
    registerInternals(this, { storage, store: (name) => this.store(name), joinCluster: (options, hooks) => this.join(options, hooks) });
    this.functions = createFunctionRegistry();
    this.memoryDecay = memoryDecay;
    this.functions.registerAll(
      decayFunctions(
        () => this.memoryDecay.model,
        () => this.memoryDecay.now(),
      ),
    );
    this.procedures = createProcedureRegistry();
    const admin: AdminHooks = {
      listDatabases: () =>
        [
          ...this.databases(),
          ...storage.directory.composites.list().map((c) => ({
            name: c.name,
            default: false,
            status: 'online' as const,
            type: 'composite' as const,
            constituents: storage.directory.composites.constituentsOf(c.name).map(constituentName),
          })),
        ].sort((a, b) => a.name.localeCompare(b.name)),
      createDatabase: async (name, ifNotExists) => void (await this.createDatabase(name, ifNotExists)),
      dropDatabase: async (name, ifExists, cascadeAliases) => void (await this.dropDatabase(name, ifExists, cascadeAliases)),
      directory: storage.directory,
      procedures: this.procedures,
      functions: this.functions,
      apocScheduler: this.apocScheduler,
      settings: () => this.settingsSource?.() ?? [],
      clearQueryCaches: () => {
        const size = this.queryCache.size;
        this.queryCache.clear();
        return size;
      },
      changeLog: (database) => this.store(database).changeLog(),
      entityVersions: (database, kind, id, upTo) => this.store(database).entityVersions(kind, id, upTo),
      embeddings: () => {
        const provider = this.searchHost?.manager.embedder ?? null;
        if (provider === null) return null;
        return {
          kind: provider.kind,
          model: provider.model,
          dimensions: provider.dimensions,
          embed: async (texts) => (await provider.embed(texts)).map((vector) => Array.from(vector)),
        };
      },
      dbmsInfo: () => {
        const system = this.storage.database('system');
        return {
          id: system.uuid,
          name: 'graphdb',
          creationDate: (this.storage.listDatabases().find((d) => d.isDefault)?.createdAt ?? new Date(0)).toISOString(),
        };
      },
      securityFor: (security) => this.securityAdministration?.(security),
      exactVectorScan: (database, reader, request) => this.exactVectorScan(database, reader, request),
      searchIndexFailure: (database, name) => this.searchHost?.knownIndexFailure(database, name) ?? null,
    };
    this.queryCache = new QueryCache({
      procedures: (name) => this.procedures.lookup(name),
      functions: (name) => this.functions.lookup(name),
      ...(options.queryCacheMaxBytes ? { maxBytes: options.queryCacheMaxBytes } : {}),
    });
    if (options.regexCacheMaxBytes) setRegexCacheMaxBytes(options.regexCacheMaxBytes);
    if (options.testProcedures) this.procedures.register(registrationProcedure((definition) => this.registerProcedure(definition)));
    // CDC's serverId: the first eight hex digits of this DBMS's id (the system database's), as Neo4j's short server ids.
    this.transactions.serverId = this.storage.database('system').uuid.replace(/-/g, '').slice(0, 8);
    this.searchHost = options.search === false ? null : this.openSearch(options.search ?? {});
    const admission = new QueryAdmission();
    this.services = {
      admin,
      functions: this.functions,
      defaultTimeZone: options.defaultTimeZone ?? 'UTC',
      files: new ImportFiles({
        importDir: options.files?.importDir ?? join(storage.dataDir, 'import'),
        allowFileUrls: options.files?.allowFileUrls ?? true,
        urlAllowlist: options.files?.urlAllowlist ?? [],
        ...(options.files?.csvBufferSize === undefined ? {} : { csvBufferSize: options.files.csvBufferSize }),
      }),
      admitQuery: (database, clock) => admitUnderLimits(admission, database, storage.directory.limitsOf(database), clock),
      memory: memoryServices(options.memory),
    };
    this.readPool = options.readWorkers ? this.openReadPool(options, options.readWorkers) : null;
    this.host = {
      services: this.services,
      defaultDatabase: storage.defaultDatabase,
      defaultTimeoutMs: options.transactionTimeoutMs ?? 0,
      idleTimeoutMs: options.transactionIdleTimeoutMs ?? 0,
      lockTimeoutMs: lockTimeout(options),
      maxWriteSetBytes: options.maxWriteSetBytes ?? DEFAULT_MAX_WRITE_SET_BYTES,
      store: (name) => this.store(name),
      isCompositeName: (name) => storage.directory.isCompositeName(name),
      compile: (query, parameterNames) => this.queryCache.compile(query, parameterNames).ast,
      bookmarkFor: (database, version) => `graphdb:${database}:${version}`,
      transactions: this.transactions,
      ...(this.readPool === null ? {} : { readPool: this.readPool }),
    };
  }

  private openReadPool(options: GraphDBOptions, size: number): ReadPool {
    const limits = resolveMemoryLimits(options.memory);
    return new ReadPool(size, {
      defaultTimeZone: options.defaultTimeZone ?? 'UTC',
      queryCacheMaxBytes: this.queryCache.maxBytes,
      regexCacheMaxBytes: regexCacheStats().maxBytes,
      transactionMaxBytes: limits.transactionMax,
      totalMaxBytes: limits.totalMax,
      importDir: this.services.files.settings.importDir,
    });
  }

  /**
   * Checks that `security` may run `query` on `database` (what the statement reads and writes,
   * as every session checks before running it); throws Forbidden or the statement's syntax error.
   * For callers that run a statement later under another context (the HTTP write-behind queue).
   */
  authorizeStatement(security: SecurityContext | undefined, database: string, query: string): void {
    authorizeStatement(security, database, this.queryCache.compile(query).ast, this.procedures);
  }

  /**
   * True when `query` changes a graph, a schema or the DBMS (writes, deletes, index and constraint
   * commands, WRITE/SCHEMA procedures, administration commands but SHOW): what a cluster
   * follower forwards to the leader.
   */
  statementWrites(query: string): boolean {
    const statement = this.queryCache.compile(query).ast;
    return statementWritesGraph(statement, this.procedures) || statementAdministers(statement);
  }

  /** True when `query` is an administration command that changes users, roles, privileges or databases (`system`). */
  statementAdministers(query: string): boolean {
    return statementAdministers(this.queryCache.compile(query).ast);
  }

  /**
   * Refuses local commits to every database, `system` included, until `joinCluster` (a member
   * must not commit anything the replication log does not hold, not even between opening and
   * joining). The server holds `system` once it seeded its first user (docs/replication.md).
   */
  holdWritesForCluster(includeSystem = true): void {
    for (const store of this.replicatedStores()) if (includeSystem || store.name !== 'system') store.replicateThrough(JOINING_GATE);
  }

  private replicatedStores(): DatabaseStore[] {
    return this.databases().map((d) => this.store(d.name));
  }

  /** True when the system database holds entries of a replication log (this member was in a cluster). */
  get systemReplicated(): boolean {
    return this.store('system').appliedSequence > 0n;
  }

  /**
   * Joins a replicated cluster on NATS JetStream (docs/replication.md): every database, `system`
   * included, follows its replication log, and commits are appended to it by the leader only.
   */
  joinCluster(options: ClusterOptions): Promise<ClusterNode> {
    return this.join(options, {});
  }

  /** `joinCluster` with test hooks (engine-internals.ts `joinClusterWithHooks`). */
  private async join(options: ClusterOptions, hooks: ClusterHooks): Promise<ClusterNode> {
    this.assertOpen();
    if (this.member !== null) throw new Error('This engine already joined a cluster');
    // The cluster's modules (NATS, JetStream) load only for a member.
    const { ClusterNode: Node } = await import('./cluster/cluster-node.js');
    this.member = await Node.join(
      { ...options, systemChanged: () => this.systemReplicatedChange() },
      this.replicatedStores(),
      (name, fill) => this.rebuildReplica(name, fill),
      hooks,
    );
    await this.reconcileReplicas(this.member);
    return this.member;
  }

  /**
   * Brings the member's replicas in line with the catalog once it has joined: the system log can
   * create or drop databases while the member joins, before `member` is set for
   * `systemReplicatedChange` to start or stop their replication.
   */
  private async reconcileReplicas(member: ClusterNode): Promise<void> {
    const names = new Set(this.databases().map((d) => d.name));
    for (const name of names) {
      if (member.replicates(name)) continue;
      this.store(name).replicateThrough(JOINING_GATE);
      await member.addReplica(this.store(name));
    }
    for (const { database } of member.status().databases) if (!names.has(database)) await member.removeReplica(database, false);
  }

  /**
   * Registers a listener called after the system database changed through replication (another
   * member's administration): the auth service reloads users, roles and privileges.
   */
  onSystemReplicated(listener: () => Promise<void>): void {
    this.systemListeners.push(listener);
  }

  /** A replicated change of the system database: databases appear and disappear, then listeners run. */
  private async systemReplicatedChange(): Promise<void> {
    if (this.closed) return;
    const { created, dropped } = this.storage.syncCatalog();
    this.queryCache.clear();
    for (const name of dropped) {
      await this.member?.removeReplica(name, false);
      await this.searchHost?.databaseDropped(name);
    }
    for (const name of created) {
      this.searchHost?.databaseCreated(name);
      this.store(name).replicateThrough(JOINING_GATE);
      await this.member?.addReplica(this.store(name));
    }
    for (const listener of this.systemListeners) await listener();
  }

  /** The cluster membership; null when this engine is not replicated. */
  get cluster(): ClusterNode | null {
    return this.member;
  }

  /**
   * Installs user, role and privilege administration (CREATE USER, GRANT ROLE, GRANT MATCH ...,
   * SHOW USERS/ROLES/PRIVILEGES), given per session user; the server does this when
   * authentication is enabled (see `securityAdmin` in the auth module). Null removes it.
   */
  setSecurityAdministration(administration: ((security: SecurityContext | undefined) => SecurityAdmin) | null): void {
    this.securityAdministration = administration;
  }

  /**
   * Installs what SHOW SETTINGS lists (the server passes its loaded configuration, see
   * `settingRows`); without one SHOW SETTINGS lists nothing. Null removes it.
   */
  setSettingsSource(source: (() => readonly SettingInfo[]) | null): void {
    this.settingsSource = source;
  }

  /** Opens (creating when needed) a data directory. */
  static async open(options: GraphDBOptions = {}): Promise<GraphDB> {
    // Settings are checked before anything is opened: a bad memory_decay profile stops startup cleanly.
    const memoryDecay = new MemoryDecay(options.memoryDecay ?? { settings: DEFAULT_CONFIG.memory_decay });
    const temporaryDir = options.dataDir ? null : mkdtempSync(join(tmpdir(), 'graphdb-'));
    const dataDir = options.dataDir ?? temporaryDir!;
    const storage = StorageEngine.open({
      dataDir,
      ...(options.defaultDatabase ? { defaultDatabase: options.defaultDatabase } : {}),
      ...(options.homeAlias !== undefined ? { homeAlias: options.homeAlias } : {}),
      ...(options.syncMode ? { syncMode: options.syncMode } : {}),
      ...(options.lowMemory === true ? { lowMemory: true } : {}),
      ...(options.writeLockTimeoutMs !== undefined ? { writeLockTimeoutMs: options.writeLockTimeoutMs } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
    });
    const graphdb = new GraphDB(storage, options, temporaryDir, memoryDecay);
    graphdb.memoryDecay.start(() => graphdb.recalculateMemoryDecay());
    return graphdb;
  }

  /** One decay pass (recalculate and archive) over every online database. */
  async recalculateMemoryDecay(): Promise<void> {
    for (const { name, status } of this.databases()) {
      if (name === 'system' || status !== 'online' || this.closed) continue;
      await this.memoryDecay.recalculate(this.cypherRunner({ database: name }), name, { archive: true });
    }
  }

  /** Runs Cypher for the memory layer on sessions opened with `options` (database, security). */
  cypherRunner(options: SessionOptions = {}): CypherRunner {
    return sessionRunner(() => this.session(options));
  }

  /**
   * What the memory tools need to work in a database with a caller's rights: Cypher through its
   * sessions, the database's search services (when enabled), the decay clock and search weight.
   */
  memoryToolHost(options: SessionOptions & { readonly database: string }): MemoryToolHost {
    return {
      database: options.database,
      cypher: this.cypherRunner(options),
      search: () => (this.searchHost === null ? null : this.search(options.database)),
      now: () => this.memoryDecay.now(),
      decayWeight: this.memoryDecay.searchWeight,
    };
  }

  private openSearch(options: GraphDBSearchOptions): EngineSearch {
    const search = new EngineSearch(
      {
        dataDir: this.storage.dataDir,
        databaseNames: () =>
          this.databases()
            .filter((d) => d.name !== 'system' && d.status === 'online')
            .map((d) => d.name),
        beginRead: (database) => this.storage.database(database).beginRead(),
        subscribe: (listener) => this.storage.events.subscribe(listener),
        committedVersion: (database) => this.storage.database(database).version,
      },
      options,
    );
    for (const procedure of searchProcedures({
      queryFulltext: (database, catalog, name, query, limit, entity) =>
        search.databaseWithIndexes(database, catalog).queryFulltext(name, query, limit, entity),
      queryVectorIndex: (database, catalog, name, k, vector, entity) =>
        search.databaseWithIndexes(database, catalog).queryVectorIndex(name, k, vector, entity),
      vectorIndexAtSnapshot: (database, reader, name) => search.database(database).vectorIndexAtSnapshot(name, reader),
    })) {
      this.procedures.register(procedure);
    }
    return search;
  }

  /**
   * The exact-kNN plan's candidate scan (runtime/vector-top-k-source.ts): only when the reader's
   * catalog has a VECTOR index on the label and property, so a database without one never starts
   * its search services for it.
   */
  private exactVectorScan(database: string, reader: GraphReader, request: VectorTopKRequest): VectorCandidateScan | string {
    if (this.searchHost === null) return 'search is disabled';
    const indexed = reader
      .indexes()
      .some(
        (d) =>
          d.type === 'VECTOR' && d.entityType === 'NODE' && d.labelsOrTypes[0] === request.label && d.properties[0] === request.property,
      );
    if (!indexed) return `no vector index on :${request.label}(${request.property})`;
    const search = this.searchHost.databaseWithIndexesIfBuilt(database, reader);
    if (search === null) return 'the search indexes are being built';
    const serve = search.exactVectorServe(reader, request);
    if (typeof serve === 'string') return serve;
    return {
      step: (slots) => serve.scan.step(slots),
      candidates: () => serve.scan.candidates(),
      has: (nodeId) => serve.has(nodeId),
      missing: serve.missing,
      unchanged: () => serve.unchanged(),
    };
  }

  /** The engine's search services; null when opened with `search: false`. */
  get searchServices(): EngineSearch | null {
    return this.searchHost;
  }

  /** Search services of a database (BM25, vectors, hybrid, similar); throws when search is disabled. */
  search(database: string = this.defaultDatabase): DatabaseSearch {
    this.assertOpen();
    if (this.searchHost === null) throw new ClientError(StatusCodes.UnsupportedOperation, 'Search is disabled on this server.');
    this.store(database);
    return this.searchHost.database(database);
  }

  /** Adds (or replaces) a procedure; cached compilations are dropped. */
  registerProcedure(definition: ProcedureDefinition): void {
    this.procedures.register(definition);
    this.queryCache.clear();
  }

  /** Removes a procedure; cached compilations are dropped. */
  unregisterProcedure(name: string): boolean {
    this.queryCache.clear();
    return this.procedures.unregister(name);
  }

  /** The directory `file:` URLs of queries resolve in (`server.directories.import`). */
  get importDirectory(): string {
    return this.services.files.settings.importDir;
  }

  /** Name of the default database. */
  get defaultDatabase(): string {
    return this.storage.defaultDatabase;
  }

  /** A new session (on the default database unless `options.database` says otherwise). */
  session(options: SessionOptions = {}): DatabaseSession {
    this.assertOpen();
    const directory = this.storage.directory;
    const name = options.database;
    if (name !== undefined && directory.composites.isComposite(name)) return new CompositeSession(this.host, directory, options, name);
    if (name !== undefined && directory.isCompositeName(name)) throw compositeAccessError(name, this.storage.defaultDatabase);
    return new EngineSession(this.host, options);
  }

  /**
   * The typed database services of listeners, the CLI and commands (existence, snapshot reads,
   * MVCC status and pruning, the lifecycle service): they never hold a store.
   */
  get databaseServices(): DatabaseServices {
    this.dbServices ??= new DatabaseServices(this.storage, () => this.assertOpen());
    return this.dbServices;
  }

  /** The storage of one database (throws DatabaseNotFound); other engine modules use engine-internals.ts `storeOf`. */
  private store(name: string = this.defaultDatabase): DatabaseStore {
    this.assertOpen();
    return this.storage.database(name);
  }

  /** Every database (SHOW DATABASES). */
  databases(): DatabaseInfo[] {
    return this.storage.listDatabases().map((d) => ({ name: d.name, default: d.isDefault, status: d.status }));
  }

  /** CREATE DATABASE; false when it existed and `ifNotExists` was set. */
  async createDatabase(name: string, ifNotExists = false): Promise<boolean> {
    const created = await this.storage.createDatabase(name, ifNotExists);
    if (created) this.searchHost?.databaseCreated(name);
    if (created && this.member !== null) {
      this.store(name).replicateThrough(JOINING_GATE);
      await this.member.addReplica(this.store(name));
    }
    return created;
  }

  /** DROP DATABASE; false when absent and `ifExists` was set. Refused while it has aliases unless `cascadeAliases`. */
  async dropDatabase(name: string, ifExists = false, cascadeAliases = false): Promise<boolean> {
    const dropped = await this.storage.dropDatabase(name, ifExists, cascadeAliases);
    if (dropped) await this.searchHost?.databaseDropped(name);
    if (dropped) await this.member?.removeReplica(name.toLowerCase(), true);
    return dropped;
  }

  /**
   * Restore into the running server: swaps database `name`'s contents for `stagedFile`, a verified
   * database file the caller placed in the data directory (see `StorageEngine.replaceDatabase`:
   * writes quiesced, readers see the old or the new state, never a mix). Search indexes of the
   * database are rebuilt and cached plans dropped. Refused on a cluster member (a restore there
   * would diverge from the replicated log). `drained` settles once the old file is deleted.
   */
  async replaceDatabase(
    name: string,
    stagedFile: string,
    options: { readonly lockTimeoutMs?: number; readonly drainTimeoutMs?: number } = {},
  ): Promise<{ readonly created: boolean; readonly drained: Promise<void> }> {
    this.assertOpen();
    if (this.member !== null) {
      throw new ClientError(
        StatusCodes.UnsupportedOperation,
        'A cluster member does not restore in place; restore every member from the backup while it is stopped.',
      );
    }
    return this.swapDatabase(name, stagedFile, options);
  }

  /**
   * A cluster member's database replaced by what its replication log holds (cluster-node.ts):
   * `fill` writes a snapshot of the log to the staged file; without one the database starts
   * empty and is replayed from the log's first entry. Local commits stay refused on the new store
   * until the member installs its gate again. Resolves to the new store.
   */
  private async rebuildReplica(name: string, fill: ((file: string) => Promise<void>) | null): Promise<DatabaseStore> {
    const staged = `${name}.rebuilt-${Date.now().toString(36)}.db`;
    const path = join(this.storage.dataDir, staged);
    try {
      if (fill !== null) await fill(path);
      if (name === 'system') {
        const system = await this.storage.replaceSystem(fill === null ? null : staged);
        system.replicateThrough(JOINING_GATE);
        return system;
      }
      await this.swapDatabase(
        name,
        staged,
        {},
        {
          append: () =>
            Promise.reject(new ClientError(StatusCodes.NotALeader, 'This member is rebuilding the database from its replication log.')),
        },
      );
    } catch (error) {
      for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
      throw error;
    }
    return this.store(name);
  }

  /** Swaps a database's file; `gate` (a replicated database) is installed on the new store before anything can commit to it. */
  private async swapDatabase(
    name: string,
    stagedFile: string,
    options: { readonly lockTimeoutMs?: number; readonly drainTimeoutMs?: number },
    gate: ReplicationGate | null = null,
  ): Promise<{ readonly created: boolean; readonly drained: Promise<void> }> {
    const { created, drained } = await this.storage.replaceDatabase(name, stagedFile, options);
    if (gate !== null) this.store(name).replicateThrough(gate);
    this.queryCache.clear();
    if (this.searchHost !== null) {
      if (!created) await this.searchHost.databaseDropped(name);
      this.searchHost.databaseCreated(name);
    }
    return {
      created,
      drained: drained.then((oldFile) => {
        if (oldFile !== null) this.readPool?.forgetFile(join(this.storage.dataDir, oldFile));
      }),
    };
  }

  /** Node, relationship and per-label counts of a database. */
  stats(database: string = this.defaultDatabase): GraphStats {
    const store = this.store(database);
    const figures = store.stats();
    const reader = store.beginRead();
    try {
      const labels = reader.labels().map((label) => ({ label, count: reader.countNodes(label) }));
      return {
        database: store.name,
        nodeCount: figures.nodes,
        relationshipCount: figures.relationships,
        labels,
        dataSizeBytes: figures.dataSizeBytes,
        version: figures.version,
      };
    } finally {
      reader.close();
    }
  }

  /**
   * What the engine's caches hold (this thread's; each read worker has its own, under the same
   * bounds): entries and estimated bytes against each byte bound.
   */
  cacheStats(): { readonly query: CacheFigures; readonly regex: CacheFigures } {
    return {
      query: { entries: this.queryCache.size, bytes: this.queryCache.bytes, maxBytes: this.queryCache.maxBytes },
      regex: regexCacheStats(),
    };
  }

  /**
   * Bulk import of JSON Lines or neo4j-admin CSV files (or a Cypher script) into a database, the
   * `graphdb import` path: JSON Lines and CSV go through the storage bulk loader (one commit,
   * indexes built in sorted passes). Bad rows are reported in the summary, never thrown.
   */
  importFiles(options: ImportOptions): Promise<ImportSummary> {
    this.assertOpen();
    return importGraph(this, options);
  }

  /**
   * Starts a bulk load into a database (docs/bulk-import.md): `addNode(labels, props)` -> id,
   * `addRelationship(type, startId, endId, props)`, then `finish()` (one commit) or `abort()`.
   * Holds the database's write lock until then.
   */
  bulkLoader(database: string = this.defaultDatabase, options: BulkLoadOptions = {}): Promise<BulkLoader> {
    return BulkLoader.open(this.store(database), options);
  }

  /**
   * Subscribes to committed changes of every database, as materialized nodes and relationships;
   * returns the unsubscribe function.
   */
  onChange(listener: (changes: readonly EntityChange[]) => void): () => void {
    return this.storage.events.subscribe((events) =>
      listener(materializeChanges(events, (database) => this.storage.database(database).uuid)),
    );
  }

  /** Closes every database; a temporary data directory is deleted. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.member?.leave();
    await this.apocScheduler.close();
    await this.memoryDecay.stop();
    await this.readPool?.close();
    await this.searchHost?.close();
    this.storage.close();
    if (this.temporaryDir) rmSync(this.temporaryDir, { recursive: true, force: true });
  }

  /** One auto-commit statement for a background job; the first column of its first row. */
  private async runBackground(database: string, statement: string, parameters: ReadonlyMap<string, CypherValue>): Promise<CypherValue> {
    const session = this.session({ database });
    try {
      const result = await session.run(statement, parameters);
      const { records } = await result.pull(-1);
      return records[0]?.[0] ?? null;
    } finally {
      await session.close();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new TransientError(StatusCodes.DatabaseUnavailable, 'The database server is shutting down.');
  }
}
