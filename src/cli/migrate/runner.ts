/**
 * Applies, inspects, validates and repairs migrations against a database through the shell's
 * client (embedded or over Bolt). Each migration runs in its own transaction together with the
 * record of it, so a migration is either applied and recorded, or neither.
 */
import type { CypherValue } from '../../engine/index.js';
import { renderError } from '../render.js';
import type { ShellClient } from '../shell/client.js';
import { MigrationError, migrationStatus, type AppliedMigration, type MigrationFile, type MigrationStatus } from './migrations.js';
import { valueText } from '../../engine/index.js';

/** Label of the nodes that record applied migrations. */
export const MIGRATION_LABEL = '__GraphdbMigration';

/** What `graphdb migrate` did. */
export interface ApplyReport {
  readonly applied: readonly {
    readonly version: string;
    readonly file: string;
    readonly statements: number;
    readonly executionTimeMs: number;
  }[];
  readonly alreadyApplied: number;
  readonly dryRun: boolean;
}

/** The migrations the database recorded. */
export async function readApplied(client: ShellClient): Promise<AppliedMigration[]> {
  const result = await client.run(
    `MATCH (m:${MIGRATION_LABEL}) RETURN m.version, m.description, m.file, m.checksum, toString(m.installedOn), m.executionTimeMs`,
    new Map(),
  );
  return result.records.map((r) => ({
    version: valueText(r[0]),
    description: valueText(r[1]),
    file: valueText(r[2]),
    checksum: valueText(r[3]),
    installedOn: valueText(r[4]),
    executionTimeMs: Number(r[5]),
  }));
}

/** The folder against the database; throws when applied migrations changed, vanished or pending ones sort before them. */
export function requireValid(statuses: readonly MigrationStatus[]): void {
  const problems = statuses.filter((s) => s.state !== 'applied' && s.state !== 'pending');
  if (problems.length === 0) return;
  const lines = problems.map((s) => {
    switch (s.state) {
      case 'checksum mismatch':
        return `  V${s.version} (${s.file}): checksum mismatch, the file changed after it was applied (recorded ${s.recordedChecksum!.slice(0, 12)}, file ${s.fileChecksum!.slice(0, 12)})`;
      case 'missing file':
        return `  V${s.version} (${s.file}): applied, but the file is missing from the folder`;
      default:
        return `  V${s.version} (${s.file}): pending, but a later version is already applied`;
    }
  });
  throw new MigrationError(
    `Validation failed:\n${lines.join('\n')}\nRestore the files, or run \`graphdb migrate repair\` to accept the current files' checksums.`,
  );
}

/** Applies the pending migrations in version order; stops at the first failure with its file and line. */
export async function applyMigrations(
  client: ShellClient,
  files: readonly MigrationFile[],
  options: { dryRun: boolean },
): Promise<ApplyReport> {
  const statuses = migrationStatus(files, await readApplied(client));
  requireValid(statuses);
  const pending = files.filter((f) => statuses.find((s) => s.file === f.file)?.state === 'pending');
  const report: ApplyReport = { applied: [], alreadyApplied: statuses.filter((s) => s.state === 'applied').length, dryRun: options.dryRun };
  if (options.dryRun) {
    return {
      ...report,
      applied: pending.map((f) => ({ version: f.version, file: f.file, statements: f.statements.length, executionTimeMs: 0 })),
    };
  }
  const applied: ApplyReport['applied'][number][] = [];
  for (const migration of pending) {
    const started = performance.now();
    await client.begin();
    try {
      for (const [index, statement] of migration.statements.entries()) {
        try {
          await client.run(statement.text, new Map());
        } catch (error) {
          throw new MigrationError(
            `Migration ${migration.file} failed at ${migration.path}:${statement.line} (statement ${index + 1}):\n${renderError(error, statement.text)}`,
          );
        }
      }
      const executionTimeMs = Math.round(performance.now() - started);
      await client.run(
        `CREATE (:${MIGRATION_LABEL} {version: $version, description: $description, file: $file, checksum: $checksum, installedOn: datetime(), executionTimeMs: $ms})`,
        params({
          version: migration.version,
          description: migration.description,
          file: migration.file,
          checksum: migration.checksum,
          ms: BigInt(executionTimeMs),
        }),
      );
      await client.commit();
      applied.push({ version: migration.version, file: migration.file, statements: migration.statements.length, executionTimeMs });
    } catch (error) {
      if (client.inTransaction) await client.rollback();
      if (error instanceof MigrationError) throw Object.assign(error, { applied });
      throw error;
    }
  }
  return { ...report, applied };
}

/** Accepts the files' current checksums for applied migrations whose files changed; returns the versions updated. */
export async function repairChecksums(client: ShellClient, files: readonly MigrationFile[]): Promise<string[]> {
  const statuses = migrationStatus(files, await readApplied(client));
  const changed = statuses.filter((s) => s.state === 'checksum mismatch');
  for (const s of changed) {
    await client.run(
      `MATCH (m:${MIGRATION_LABEL} {file: $file}) SET m.checksum = $checksum`,
      params({ file: s.file, checksum: s.fileChecksum! }),
    );
  }
  return changed.map((s) => s.version);
}

function params(values: Record<string, CypherValue>): Map<string, CypherValue> {
  return new Map(Object.entries(values));
}
