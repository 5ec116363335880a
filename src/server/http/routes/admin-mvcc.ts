/**
 * Route group (admin only): the MVCC lifecycle admin surface (docs/admin.md), over the
 * engine's MvccLifecycleService (src/engine/mvcc/lifecycle).
 *
 * - `GET /admin/databases/{db}/mvcc` and `.../mvcc/status`: lifecycle state and interval,
 *   pressure band (thresholds, pending transition, emergency mode, warning), readers, pinned
 *   bytes, debt (last rollup: sampled, or exact after a full scan), last-run summary,
 *   fence-mismatch (stale-plan) count. No history scan runs on this path.
 * - `POST .../mvcc/pause|resume|prune|schedule` (`{interval: "10m"}`, `"0s"` = manual-only).
 * - `POST .../mvcc/rebuild-heads`: the head rebuild (RebuildMVCCHeads).
 * - `GET .../mvcc/debt?limit=N`: the exact debt and its top N keys (capped at 1000), read in slices.
 *
 * The lifecycle starts manual-only (retention settings alone start no background pruning);
 * cycles use the database's effective retention and `mvcc.*` settings. The `system` database is
 * not selectable. The service evaluates debt and pressure every 10 s and the reader policy every
 * second. Responses of a request to a database whose band is not `normal` carry the header
 * `X-Graphdb-Mvcc-Pressure: <band>` (and `; emergency`).
 */
import { statfsSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { parseDuration, formatDuration } from '../../../engine/config/index.js';
import {
  DatabaseNotFound,
  MAX_DEBT_KEYS,
  StatusCodes,
  SYSTEM_DATABASE,
  type GraphDB,
  type LifecycleClock,
  type LifecycleSettings,
  type RunSummary,
  graphError,
} from '../../../engine/index.js';
import { MvccMetrics } from './admin-mvcc-metrics.js';

/** Inputs of the MVCC admin routes. */
export interface AdminMvccRouteOptions {
  readonly graphdb: GraphDB;
  /** The lifecycle's clock (tests inject one; wall-clock time otherwise). */
  readonly clock?: LifecycleClock;
}

const admin = { auth: 'admin' } as const;
const dbParams = {
  type: 'object',
  required: ['db'],
  properties: { db: { type: 'string', description: 'Database name (not system)' } },
} as const;
const objectResponse = { 200: { type: 'object', additionalProperties: true } } as const;
/** Longest lifecycle interval (timers cannot exceed ~24.8 days; a day is plenty for pruning). */
const MAX_INTERVAL_MS = 24 * 3_600_000;
/** The header of degraded responses. */
export const PRESSURE_HEADER = 'x-graphdb-mvcc-pressure';

function runJson(run: RunSummary | null): Record<string, unknown> | null {
  if (run === null) return null;
  return {
    trigger: run.trigger,
    started_at: run.startedAt,
    duration_ms: run.durationMs,
    pruned_versions: run.prunedVersions,
    pruned_bytes: run.prunedBytes,
    keys_scanned: run.keysScanned,
    prune_floor: run.pruneFloor,
    stale_plan_skips: run.stalePlanSkips,
    hot_keys: run.hotKeys,
    keys_served: run.budgetKeys,
    stopped_by: run.stoppedBy,
    emergency: run.emergency,
    retention: { max_versions: run.retention.maxVersions, ttl: formatDuration(run.retention.ttlMs), hard_cap: run.retention.hardCap },
    error: run.error,
  };
}

function freeBytes(dir: string): number {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
}

/** The MVCC admin route plugin for `graphdb`. */
export function adminMvccRoutes(options: AdminMvccRouteOptions): FastifyPluginAsync {
  const { graphdb } = options;
  return async function mvccRoutes(app: FastifyInstance): Promise<void> {
    const services = app.graphdb;
    const userDatabases = (): string[] =>
      graphdb
        .databases()
        .filter((d) => d.name !== SYSTEM_DATABASE && d.status === 'online')
        .map((d) => d.name);
    const settings = (database: string): LifecycleSettings => {
      const config = services.config.effectiveConfig(database);
      const mvcc = config.mvcc;
      return {
        maxVersions: config.database.mvcc_retention_max_versions,
        ttlMs: config.database.mvcc_retention_ttl,
        hardCap: mvcc.max_chain_hard_cap,
        maxSnapshotLifetimeMs: mvcc.max_snapshot_lifetime,
        hardExpiryAfterMs: mvcc.hard_expiry_after,
        highEnter: mvcc.pressure_high_enter,
        criticalEnter: mvcc.pressure_critical_enter,
        highLongSnapshotRate: mvcc.high_long_snapshot_rate,
        budgetKeys: mvcc.budget_keys,
        minSliceKeys: mvcc.min_slice_keys,
        maxCpuShare: mvcc.max_cpu_share,
        maxIoBytes: mvcc.max_io_bytes,
        maxCycleRuntimeMs: mvcc.max_cycle_runtime,
      };
    };
    let metrics: MvccMetrics | null = null;
    const service = graphdb.databaseServices.lifecycle({
      databases: userDatabases,
      admit: (name) => {
        if (name.toLowerCase() === SYSTEM_DATABASE) {
          throw graphError(StatusCodes.InvalidRequest, 'The MVCC admin surface excludes the system database.');
        }
        if (!services.engine.hasDatabase(name)) throw new DatabaseNotFound(name);
      },
      settings,
      freeBytes,
      clock: options.clock,
      audit: (event) => services.logger.warn(event, 'MVCC snapshot reader expired'),
      observe: (database, run) => metrics?.recordRun(database, run),
    });
    metrics = new MvccMetrics(services.metrics.registry, () => service.allFigures());
    service.start();

    app.addHook('onSend', async (request, reply) => {
      const match = /\/db\/([^/?]+)\//.exec(request.url);
      if (match === null) return;
      let database: string;
      try {
        database = decodeURIComponent(match[1]!);
      } catch {
        return;
      }
      const band = service.bandOf(database);
      if (band !== null && band.band !== 'normal') reply.header(PRESSURE_HEADER, band.emergency ? `${band.band}; emergency` : band.band);
    });

    const statusBody = async (name: string, refresh: boolean): Promise<Record<string, unknown>> => {
      const lifecycle = service.lifecycle(name);
      if (refresh || lifecycle.debt.latest === null) await lifecycle.evaluate();
      const figures = service.figures(name);
      const debt = figures.debt;
      const pressure = figures.pressure;
      const pinned = debt?.pinnedBytes ?? 0;
      return {
        database: figures.database,
        lifecycle: {
          state: lifecycle.state,
          interval: formatDuration(lifecycle.interval),
          retention: retentionJson(settings(figures.database)),
        },
        pressure: {
          band: pressure.band,
          pinned_bytes: pinned,
          pending:
            pressure.pending === null ? null : { target: pressure.pending.target, since: new Date(pressure.pending.since).toISOString() },
          emergency: pressure.emergency,
          debt_slope_bytes_per_second: pressure.debtSlope,
          warning:
            pressure.band === 'normal'
              ? null
              : pressure.band === 'high'
                ? 'MVCC history pressure is high: new long snapshots are rate-limited.'
                : 'MVCC history pressure is critical: new long snapshots are refused.',
          data_dir_free_bytes: freeBytes(graphdb.databaseServices.dataDir),
          thresholds: {
            high_enter: figures.thresholds.highEnter,
            high_exit: figures.thresholds.highExit,
            critical_enter: figures.thresholds.criticalEnter,
            critical_exit: figures.thresholds.criticalExit,
          },
        },
        oldest_reader:
          figures.oldestReaderVersion === null
            ? null
            : { version: figures.oldestReaderVersion.toString(), age_seconds: figures.oldestReaderAgeSeconds },
        active_readers: figures.activeReaders,
        long_readers: figures.longReaders,
        pinned_bytes: pinned,
        debt:
          debt === null
            ? null
            : {
                bytes: debt.bytes,
                keys: debt.keys,
                versions: debt.versions,
                exact: debt.exact,
                coverage: debt.coverage,
                as_of: new Date(debt.at).toISOString(),
                tombstone_chain_max_depth: debt.tombstoneChainMaxDepth,
                max_chain_length: debt.maxChainLength,
              },
        history: {
          version: figures.version.toString(),
          prune_floor: figures.pruneFloor.toString(),
          closed_versions: debt?.closedVersions ?? { nodes: 0, relationships: 0 },
          bytes: debt?.historyBytes ?? 0,
        },
        last_run: runJson(lifecycle.lastRun),
        totals: {
          runs: lifecycle.totals.runs,
          pruned_bytes: lifecycle.totals.prunedBytes,
          pruned_versions: lifecycle.totals.prunedVersions,
          graceful_cancels: lifecycle.totals.gracefulCancels,
          hard_expiries: lifecycle.totals.hardExpiries,
          admissions_refused: lifecycle.totals.admissionsRefused,
          admissions_rate_limited: lifecycle.totals.admissionsRateLimited,
        },
        fence_mismatches: lifecycle.totals.stalePlanSkips,
      };
    };

    const statusSchema = {
      summary: 'MVCC lifecycle status of a database',
      tags: ['admin', 'mvcc'],
      params: dbParams,
      querystring: {
        type: 'object',
        properties: { refresh: { type: 'boolean', default: false, description: 'Run a debt pass and pressure evaluation first' } },
      },
      response: objectResponse,
    };
    type StatusRequest = { Params: { db: string }; Querystring: { refresh?: boolean } };
    for (const path of ['/admin/databases/:db/mvcc', '/admin/databases/:db/mvcc/status']) {
      app.get<StatusRequest>(path, { config: admin, schema: statusSchema }, async (request) =>
        statusBody(request.params.db, request.query.refresh === true),
      );
    }

    app.post<{ Params: { db: string } }>(
      '/admin/databases/:db/mvcc/pause',
      {
        config: admin,
        schema: {
          summary: 'Pause automatic MVCC prune cycles (interval kept)',
          tags: ['admin', 'mvcc'],
          params: dbParams,
          response: objectResponse,
        },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        lifecycle.pause();
        return { database: lifecycle.database, state: lifecycle.state, interval: formatDuration(lifecycle.interval) };
      },
    );

    app.post<{ Params: { db: string } }>(
      '/admin/databases/:db/mvcc/resume',
      {
        config: admin,
        schema: { summary: 'Resume automatic MVCC prune cycles', tags: ['admin', 'mvcc'], params: dbParams, response: objectResponse },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        lifecycle.resume();
        return { database: lifecycle.database, state: lifecycle.state, interval: formatDuration(lifecycle.interval) };
      },
    );

    app.post<{ Params: { db: string } }>(
      '/admin/databases/:db/mvcc/prune',
      {
        config: admin,
        schema: {
          summary: 'Run one MVCC prune cycle now with the retention settings',
          tags: ['admin', 'mvcc'],
          params: dbParams,
          response: objectResponse,
        },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        const run = await service.prune(lifecycle.database);
        return { database: lifecycle.database, run: runJson(run) };
      },
    );

    app.post<{ Params: { db: string }; Body: { interval: string } }>(
      '/admin/databases/:db/mvcc/schedule',
      {
        config: admin,
        schema: {
          summary: 'Set the interval of automatic MVCC prune cycles ("0s" = manual-only)',
          tags: ['admin', 'mvcc'],
          params: dbParams,
          body: {
            type: 'object',
            required: ['interval'],
            properties: { interval: { type: 'string', description: 'Duration such as 30s, 10m, 1h; 0s = manual-only' } },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        const interval = parseDuration(request.body.interval);
        if (interval === null)
          throw graphError(
            StatusCodes.InvalidRequest,
            `Invalid interval '${request.body.interval}' (expected a duration such as 30s, 10m or 0s).`,
          );
        if (interval > 0 && (interval < 1000 || interval > MAX_INTERVAL_MS)) {
          throw graphError(StatusCodes.InvalidRequest, 'The lifecycle interval must be 0s (manual-only) or between 1s and 24h.');
        }
        lifecycle.schedule(interval);
        return { database: lifecycle.database, state: lifecycle.state, interval: formatDuration(lifecycle.interval) };
      },
    );

    app.get<{ Params: { db: string }; Querystring: { limit?: number } }>(
      '/admin/databases/:db/mvcc/debt',
      {
        config: admin,
        schema: {
          summary: 'Top N MVCC debt keys (prunable closed versions per node/relationship)',
          tags: ['admin', 'mvcc'],
          params: dbParams,
          querystring: {
            type: 'object',
            properties: { limit: { type: 'integer', minimum: 0, default: 10, description: `Number of keys (at most ${MAX_DEBT_KEYS})` } },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        const limit = Math.min(request.query.limit ?? 10, MAX_DEBT_KEYS);
        const debt = await service.debtReport(lifecycle.database, limit);
        return { database: lifecycle.database, limit, bytes: debt.bytes, keys: debt.keys, versions: debt.versions, top: debt.top };
      },
    );

    app.post<{ Params: { db: string } }>(
      '/admin/databases/:db/mvcc/rebuild-heads',
      {
        config: admin,
        schema: {
          summary: 'Rebuild MVCC heads: align head versions with their history, drop uncommitted history, recount',
          tags: ['admin', 'mvcc'],
          params: dbParams,
          response: objectResponse,
        },
      },
      async (request) => {
        const lifecycle = service.lifecycle(request.params.db);
        const result = await service.rebuildHeads(lifecycle.database);
        return {
          database: lifecycle.database,
          heads_checked: result.headsChecked,
          heads_repaired: result.headsRepaired,
          orphan_versions_removed: result.orphanVersionsRemoved,
          counts_corrected: result.countsCorrected,
          duration_ms: result.durationMs,
        };
      },
    );

    app.addHook('onClose', async () => service.close());
  };
}

function retentionJson(settings: LifecycleSettings): Record<string, unknown> {
  return { max_versions: settings.maxVersions, ttl: formatDuration(settings.ttlMs), hard_cap: settings.hardCap };
}
