/**
 * Route group (admin only): `POST /admin/backup` and `POST /admin/restore`, backed by the same
 * transfer module as `graphdb backup|restore` (`createBackup`, `restoreBackup`).
 *
 * - backup `{output, databases?}`: flushes the write-behind queue (acknowledged asynchronous
 *   CREATEs are included), then an online backup of every database (system included, so user
 *   accounts travel with it) into the directory `output` (must not exist or be empty).
 * - restore `{input, target?}`: `input` is a backup directory or its `manifest.json`. The live
 *   data directory is never overwritten while the server runs on it: the backup is verified
 *   (manifest, SHA-256 of every file, SQLite integrity) and restored into `target` (an empty
 *   directory; default `<data_dir>-restore-<timestamp>` next to the live one). Start a server
 *   on that directory to use it (the response says where).
 */
import { basename, dirname, join, resolve } from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { StatusCodes, type GraphDB, graphError } from '../../../engine/index.js';
import { BackupError, createBackup, restoreBackup } from '../../../engine/transfer/index.js';

/** Inputs of the backup routes. */
export interface AdminBackupRouteOptions {
  readonly graphdb: GraphDB;
}

const admin = { auth: 'admin' } as const;
const objectResponse = { 200: { type: 'object', additionalProperties: true } } as const;

function asRequestError(error: unknown): unknown {
  return error instanceof BackupError ? graphError(StatusCodes.InvalidRequest, error.message) : error;
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
    const dataDir = graphdb.storage.dataDir;

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

    app.post<{ Body: { input: string; target?: string } }>(
      '/admin/restore',
      {
        config: admin,
        schema: {
          summary: 'Verify a backup and restore it into an empty data directory (never the live one)',
          tags: ['admin', 'backup'],
          body: {
            type: 'object',
            required: ['input'],
            properties: {
              input: { type: 'string', minLength: 1, description: 'Backup directory or its manifest.json' },
              target: {
                type: 'string',
                minLength: 1,
                description: 'Empty directory to restore into (default: <data_dir>-restore-<timestamp>)',
              },
            },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const input = backupDirectoryOf(request.body.input);
        const stamp = new Date().toISOString().replace(/[:.]/g, '-');
        const target = resolve(request.body.target ?? join(dirname(resolve(dataDir)), `${basename(resolve(dataDir))}-restore-${stamp}`));
        if (isInside(target, dataDir) || isInside(dataDir, target)) {
          throw graphError(StatusCodes.InvalidRequest, 'A restore never writes into the live data directory; choose another target.');
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
