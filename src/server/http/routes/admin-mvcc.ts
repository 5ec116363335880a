/**
 * Route group (admin only): the MVCC lifecycle admin surface of SPEC "MVCC admin".
 *
 * - `GET /admin/databases/{db}/mvcc` and `.../mvcc/status`: lifecycle state and interval,
 *   pressure band (with thresholds and a pending transition), oldest reader, pinned bytes,
 *   debt bytes/keys, last-run summary, fence-mismatch (stale-plan) count.
 * - `POST .../mvcc/pause|resume|prune|schedule` (`{interval: "10m"}`, `"0s"` = manual-only).
 * - `GET .../mvcc/debt?limit=N`: the top N debt keys (capped at 1000).
 *
 * The lifecycle starts manual-only (retention settings alone start no background pruning);
 * cycles use the database's effective `mvcc_retention_max_versions` / `mvcc_retention_ttl`.
 * The `system` database is not selectable. The pressure band of every user database is evaluated
 * every 15 s and on each status request (transitions need their debounce time sustained).
 */
import { statfsSync } from 'node:fs';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { parseDuration, formatDuration } from '../../../engine/config/index.js';
import { DatabaseNotFound, GraphError, StatusCodes, SYSTEM_DATABASE, type GraphDB, type DatabaseStore } from '../../../engine/index.js';
import { computeDebt, type DebtFigures, type RetentionSettings } from './admin-mvcc-debt.js';
import { MvccLifecycle, pressureThresholds, type RunSummary } from './admin-mvcc-lifecycle.js';
import { MvccMetrics, type MvccScrape } from './admin-mvcc-metrics.js';

/** Inputs of the MVCC admin routes. */
export interface AdminMvccRouteOptions {
  readonly graphdb: GraphDB;
}

const admin = { auth: 'admin' } as const;
const dbParams = {
  type: 'object',
  required: ['db'],
  properties: { db: { type: 'string', description: 'Database name (not system)' } },
} as const;
const objectResponse = { 200: { type: 'object', additionalProperties: true } } as const;
/** How often the pressure band of every user database is evaluated (besides each status request). */
export const PRESSURE_EVALUATION_MS = 15_000;
/** Longest lifecycle interval (timers cannot exceed ~24.8 days; a day is plenty for pruning). */
const MAX_INTERVAL_MS = 24 * 3_600_000;
/** Upper bound of the per-key debt list (cardinality cap). */
export const MAX_DEBT_KEYS = 1000;

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
    retention: { max_versions: run.retention.maxVersions, ttl: formatDuration(run.retention.ttlMs) },
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
    const lifecycles = new Map<string, MvccLifecycle>();

    const userDatabases = (): string[] =>
      graphdb
        .databases()
        .filter((d) => d.name !== SYSTEM_DATABASE && d.status === 'online')
        .map((d) => d.name);
    const retention = (database: string): RetentionSettings => {
      const settings = services.config.effectiveConfig(database).database;
      return { maxVersions: settings.mvcc_retention_max_versions, ttlMs: settings.mvcc_retention_ttl };
    };
    const debtOf = (store: DatabaseStore, limit: number): DebtFigures => {
      const status = store.mvccStatus();
      const pinFloor = status.oldestReaderVersion ?? status.version + 1n;
      return computeDebt(store.file, retention(store.name), pinFloor, limit);
    };
    const scrape = (): MvccScrape[] => {
      const figures: MvccScrape[] = [];
      for (const database of userDatabases()) {
        try {
          const store = graphdb.store(database);
          figures.push({ database, status: store.mvccStatus(), debt: debtOf(store, 0) });
        } catch (error) {
          if (!(error instanceof DatabaseNotFound)) throw error;
        }
      }
      return figures;
    };
    const metrics = new MvccMetrics(services.metrics.registry, scrape);

    const resolve = (name: string): { store: DatabaseStore; lifecycle: MvccLifecycle } => {
      if (name.toLowerCase() === SYSTEM_DATABASE) {
        throw new GraphError(StatusCodes.InvalidRequest, 'The MVCC admin surface excludes the system database.');
      }
      if (!services.engine.hasDatabase(name)) throw new DatabaseNotFound(name);
      const store = graphdb.store(name);
      let lifecycle = lifecycles.get(store.name);
      if (lifecycle === undefined) {
        const database = store.name;
        lifecycle = new MvccLifecycle(
          database,
          () => graphdb.store(database),
          () => retention(database),
          (db, run) => metrics.recordRun(db, run),
        );
        lifecycles.set(database, lifecycle);
      }
      return { store, lifecycle };
    };

    const evaluateAll = (): void => {
      const free = freeBytes(graphdb.storage.dataDir);
      for (const database of userDatabases()) {
        try {
          const { store, lifecycle } = resolve(database);
          lifecycle.evaluatePressure(store.mvccStatus().bytesPinnedByOldestReader, free);
        } catch (error) {
          if (!(error instanceof DatabaseNotFound)) services.logger.warn({ database, err: error }, 'MVCC pressure evaluation failed');
        }
      }
    };
    const evaluator = setInterval(evaluateAll, PRESSURE_EVALUATION_MS);
    evaluator.unref();

    const statusBody = (name: string): Record<string, unknown> => {
      const { store, lifecycle } = resolve(name);
      const status = store.mvccStatus();
      const debt = debtOf(store, 0);
      const free = freeBytes(graphdb.storage.dataDir);
      const pinned = status.bytesPinnedByOldestReader;
      const pressure = lifecycle.evaluatePressure(pinned, free);
      const thresholds = pressureThresholds(free);
      return {
        database: store.name,
        lifecycle: {
          state: lifecycle.state,
          interval: formatDuration(lifecycle.interval),
          retention: retentionJson(retention(store.name)),
        },
        pressure: {
          band: pressure.band,
          pinned_bytes: pinned,
          pending: pressure.pending,
          data_dir_free_bytes: free,
          thresholds: {
            high_enter: thresholds.highEnter,
            high_exit: thresholds.highExit,
            critical_enter: thresholds.criticalEnter,
            critical_exit: thresholds.criticalExit,
          },
        },
        oldest_reader:
          status.oldestReaderVersion === null
            ? null
            : { version: status.oldestReaderVersion.toString(), age_seconds: status.oldestReaderAgeSeconds },
        active_readers: status.activeReaders,
        pinned_bytes: pinned,
        debt: { bytes: debt.bytes, keys: debt.keys, versions: debt.versions },
        history: {
          version: status.version.toString(),
          prune_floor: status.pruneFloor.toString(),
          oldest_history_version: status.oldestHistoryVersion?.toString() ?? null,
          closed_versions: status.closedVersions,
          bytes: status.historyBytes,
        },
        last_run: runJson(lifecycle.lastRun),
        totals: {
          runs: lifecycle.totals.runs,
          pruned_bytes: lifecycle.totals.prunedBytes,
          pruned_versions: lifecycle.totals.prunedVersions,
        },
        fence_mismatches: lifecycle.totals.stalePlanSkips,
      };
    };

    const statusSchema = {
      summary: 'MVCC lifecycle status of a database',
      tags: ['admin', 'mvcc'],
      params: dbParams,
      response: objectResponse,
    };
    app.get<{ Params: { db: string } }>('/admin/databases/:db/mvcc', { config: admin, schema: statusSchema }, async (request) =>
      statusBody(request.params.db),
    );
    app.get<{ Params: { db: string } }>('/admin/databases/:db/mvcc/status', { config: admin, schema: statusSchema }, async (request) =>
      statusBody(request.params.db),
    );

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
        const { lifecycle } = resolve(request.params.db);
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
        const { lifecycle } = resolve(request.params.db);
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
        const { lifecycle } = resolve(request.params.db);
        return { database: lifecycle.database, run: runJson(await lifecycle.prune('manual')) };
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
        const { lifecycle } = resolve(request.params.db);
        const interval = parseDuration(request.body.interval);
        if (interval === null)
          throw new GraphError(
            StatusCodes.InvalidRequest,
            `Invalid interval '${request.body.interval}' (expected a duration such as 30s, 10m or 0s).`,
          );
        if (interval > 0 && (interval < 1000 || interval > MAX_INTERVAL_MS)) {
          throw new GraphError(StatusCodes.InvalidRequest, 'The lifecycle interval must be 0s (manual-only) or between 1s and 24h.');
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
        const { store } = resolve(request.params.db);
        const limit = Math.min(request.query.limit ?? 10, MAX_DEBT_KEYS);
        const debt = debtOf(store, limit);
        return { database: store.name, limit, bytes: debt.bytes, keys: debt.keys, versions: debt.versions, top: debt.top };
      },
    );

    app.addHook('onClose', async () => {
      clearInterval(evaluator);
      for (const lifecycle of lifecycles.values()) lifecycle.close();
    });
  };
}

function retentionJson(retention: RetentionSettings): Record<string, unknown> {
  return { max_versions: retention.maxVersions, ttl: formatDuration(retention.ttlMs) };
}
