/**
 * Route group (admin only): `POST /admin/backup` and `POST /admin/restore`, backed by the same
 * transfer module as `graphdb backup|restore`.
 *
 * - backup `{output, databases?}`: flushes the write-behind queue (acknowledged asynchronous
 *   CREATEs are included), then an online backup into `output`: a directory (must not exist or be
 *   empty; every database, system included, so user accounts travel with it) or, for an `output`
 *   ending in `.json`, a JSON backup file of the user databases (docs/backup-format.md).
 * - restore `{input, databases?, dryRun?}`: restores a backup directory, its `manifest.json` or a
 *   JSON backup file INTO THE RUNNING SERVER (`restoreIntoRunning`): verified first; writes
 *   quiesced for each database's swap; readers see the old or the new state, never a mix;
 *   `dryRun` answers what would happen and changes nothing. With `target` (an empty directory)
 *   the backup is instead restored offline into that directory, for a server started on it.
 */
import { basename, dirname, resolve } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { StatusCodes, type GraphDB, graphError } from '../../../engine/index.js';
import {
  BackupError,
  JsonBackupError,
  PointInTimeError,
  WalSnapshots,
  restoreToPointInTime,
  type WalSnapshotSettings,
  createBackup,
  createJsonBackup,
  restoreBackup,
  restoreIntoRunning,
} from '../../../engine/transfer/index.js';

/** Inputs of the backup routes. */
export interface AdminBackupRouteOptions {
  readonly graphdb: GraphDB;
  /** The `wal` settings: snapshot schedule and retention (default: on request only, 3 kept, no age limit). */
  readonly wal?: WalSnapshotSettings;
}

const admin = { auth: 'admin' } as const;
const objectResponse = { 200: { type: 'object', additionalProperties: true } } as const;

function asRequestError(error: unknown): unknown {
  return error instanceof BackupError || error instanceof JsonBackupError || error instanceof PointInTimeError
    ? graphError(StatusCodes.InvalidRequest, error.message)
    : error;
}

/** A backup directory from a restore `input` (the directory or its manifest.json). */
export function backupDirectoryOf(input: string): string {
  const path = resolve(input);
  return basename(path) === 'manifest.json' ? dirname(path) : path;
}

function isInside(child: string, parent: string): boolean {
  const c = resolve(child);
  const p = resolve(parent);
  return c === p || c.startsWith(p.endsWith('/') ? p : `${p}/`);
}

/** The backup/restore route plugin for `graphdb`. */
export function adminBackupRoutes(options: AdminBackupRouteOptions): FastifyPluginAsync {
  const { graphdb } = options;
  return async function backupRoutes(app: FastifyInstance): Promise<void> {
    const services = app.graphdb;
    const dataDir = graphdb.databaseServices.dataDir;
    const snapshots = new WalSnapshots(graphdb, options.wal ?? { intervalMs: 0, maxCount: 3, maxAgeMs: 0 }, services.logger);
    snapshots.start();
    app.addHook('onClose', async () => snapshots.stop());

    app.post<{ Body: { databases?: string[] } | undefined }>(
      '/admin/snapshots',
      {
        config: admin,
        schema: {
          summary: 'Write a WAL snapshot (compact JSON) of every user database now, then apply retention',
          tags: ['admin', 'backup'],
          body: {
            type: ['object', 'null'],
            properties: { databases: { type: 'array', items: { type: 'string' }, description: 'Only these databases' } },
          },
          response: objectResponse,
        },
      },
      async (request) => ({ snapshots: await snapshots.take(request.body?.databases) }),
    );

    app.get<{ Querystring: { database?: string } }>(
      '/admin/snapshots',
      {
        config: admin,
        schema: {
          summary: 'The WAL snapshots kept, newest first',
          tags: ['admin', 'backup'],
          querystring: { type: 'object', properties: { database: { type: 'string' } } },
          response: objectResponse,
        },
      },
      async (request) => ({ dir: snapshots.dir, snapshots: snapshots.list(request.query.database) }),
    );

    app.post<{ Body: { output: string; databases?: string[] } }>(
      '/admin/backup',
      {
        config: admin,
        schema: {
          summary: 'Online backup of every database (system included) into a new directory',
          tags: ['admin', 'backup'],
          body: {
            type: 'object',
            required: ['output'],
            properties: {
              output: { type: 'string', minLength: 1, description: 'Backup directory on the server (must not exist or be empty)' },
              databases: { type: 'array', items: { type: 'string' }, description: 'Only these databases (default: all)' },
            },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const output = resolve(request.body.output);
        if (isInside(output, dataDir))
          throw graphError(StatusCodes.InvalidRequest, 'The backup directory must be outside the data directory.');
        try {
          await services.writeBehind.flushAll();
          if (output.toLowerCase().endsWith('.json')) {
            const started = Date.now();
            const databases = await createJsonBackup(graphdb, {
              target: output,
              graphdbVersion: services.version,
              ...(request.body.databases === undefined ? {} : { databases: request.body.databases }),
            });
            services.logger.info({ output, databases: databases.length }, 'JSON backup written');
            return { output, format: 'json', databases, durationMs: Date.now() - started };
          }
          const manifest = await createBackup(dataDir, {
            target: output,
            graphdbVersion: services.version,
            ...(request.body.databases === undefined ? {} : { databases: request.body.databases }),
          });
          services.logger.info({ output, databases: manifest.databases.length, ms: manifest.durationMs }, 'backup written');
          return { output, manifest };
        } catch (error) {
          throw asRequestError(error);
        }
      },
    );

    app.post<{
      Body: { input?: string; target?: string; databases?: string[]; dryRun?: boolean; database?: string; pointInTime?: string };
    }>(
      '/admin/restore',
      {
        config: admin,
        schema: {
          summary: 'Restore a backup (directory or JSON backup file) into the running server; dryRun reports what would change',
          tags: ['admin', 'backup'],
          body: {
            type: 'object',
            properties: {
              input: { type: 'string', minLength: 1, description: 'Backup directory, its manifest.json, or a JSON backup file' },
              database: { type: 'string', minLength: 1, description: 'With pointInTime: the database to recover' },
              pointInTime: {
                type: 'string',
                format: 'date-time',
                description: 'Instead of input: recover `database` as it was at this instant (version history or WAL snapshot)',
              },
              databases: {
                type: 'array',
                items: { type: 'string' },
                description: 'Only these databases of the backup (default: all but system)',
              },
              dryRun: { type: 'boolean', description: 'Verify the backup and answer what would happen, changing nothing' },
              target: {
                type: 'string',
                minLength: 1,
                description: 'Instead of the running server: an empty directory to restore a backup directory into (offline restore)',
              },
            },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const { body } = request;
        if (body.pointInTime !== undefined) {
          if (body.database === undefined || body.input !== undefined || body.target !== undefined) {
            throw graphError(
              StatusCodes.InvalidRequest,
              'A point-in-time recovery takes `database` and `pointInTime` (no `input` or `target`).',
            );
          }
          try {
            await services.writeBehind.flushAll();
            const result = await restoreToPointInTime(graphdb, snapshots, {
              database: body.database,
              at: new Date(body.pointInTime),
              ...(body.dryRun === undefined ? {} : { dryRun: body.dryRun }),
            });
            services.logger.info({ pointInTime: result.pointInTime, dryRun: result.dryRun }, 'point-in-time recovery');
            return result;
          } catch (error) {
            throw asRequestError(error);
          }
        }
        if (body.input === undefined)
          throw graphError(StatusCodes.InvalidRequest, 'Give `input` (a backup) or `database` and `pointInTime`.');
        if (body.target === undefined) {
          try {
            await services.writeBehind.flushAll();
            const result = await restoreIntoRunning(graphdb, {
              input: body.input,
              ...(body.databases === undefined ? {} : { databases: body.databases }),
              ...(body.dryRun === undefined ? {} : { dryRun: body.dryRun }),
            });
            services.logger.info(
              { input: result.input, dryRun: result.dryRun, databases: result.databases.map((d) => d.database) },
              result.dryRun ? 'restore dry run' : 'backup restored into the running server',
            );
            return result;
          } catch (error) {
            throw asRequestError(error);
          }
        }
        const input = backupDirectoryOf(body.input);
        const target = resolve(body.target);
        if (isInside(target, dataDir) || isInside(dataDir, target)) {
          throw graphError(
            StatusCodes.InvalidRequest,
            'An offline restore never writes into the live data directory; choose another target.',
          );
        }
        try {
          const result = await restoreBackup(input, target);
          services.logger.info({ input, target: result.dataDir }, 'backup restored');
          return {
            input,
            data_dir: result.dataDir,
            manifest: result.manifest,
            next_step: `Start a server with --data-dir ${result.dataDir} to serve the restored data.`,
          };
        } catch (error) {
          throw asRequestError(error);
        }
      },
    );
  };
}
