/**
 * Versioned Cypher migrations in the style of Flyway and neo4j-migrations: files named
 * `V<version>__<description>.cypher` in one folder, applied once each in version order and
 * recorded in the database with a checksum, so that a later edit of an applied file is detected.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitStatements, type ScriptStatement } from '../../engine/transfer/index.js';

/** A migration file found on disk. */
export interface MigrationFile {
  /** Version as written in the name (`1`, `1.2`, `003`). */
  readonly version: string;
  readonly description: string;
  /** File name inside the folder. */
  readonly file: string;
  readonly path: string;
  /** SHA-256 of the content with line endings normalised to `\n`. */
  readonly checksum: string;
  readonly statements: readonly ScriptStatement[];
}

/** A migration recorded as applied in the database. */
export interface AppliedMigration {
  readonly version: string;
  readonly description: string;
  readonly file: string;
  readonly checksum: string;
  readonly installedOn: string;
  readonly executionTimeMs: number;
}

/** Why a migration folder or name is not usable. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const NAME = /^V(\d+(?:[._]\d+)*)__(.+)\.cypher$/;

/** Reads and orders the migrations of a folder. Files not named `V<version>__<description>.cypher` are refused. */
export function readMigrations(folder: string): MigrationFile[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.cypher'));
  } catch (error) {
    throw new MigrationError(`Cannot read the migrations folder ${folder}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const files = names.map((name) => {
    const match = NAME.exec(name);
    if (match === null)
      throw new MigrationError(
        `${name}: a migration file is named V<version>__<description>.cypher (for example V1__create_people.cypher)`,
      );
    const text = readFileSync(join(folder, name), 'utf8').replace(/\r\n?/g, '\n');
    return {
      version: match[1]!.replace(/_/g, '.'),
      description: match[2]!.replace(/_/g, ' '),
      file: name,
      path: join(folder, name),
      checksum: createHash('sha256').update(text).digest('hex'),
      statements: splitStatements(text),
    };
  });
  files.sort((a, b) => compareVersions(a.version, b.version));
  for (let i = 1; i < files.length; i++) {
    if (compareVersions(files[i - 1]!.version, files[i]!.version) === 0) {
      throw new MigrationError(`${files[i - 1]!.file} and ${files[i]!.file} have the same version ${files[i]!.version}`);
    }
  }
  return files;
}

/** Orders versions segment by segment, numerically (`1.10` after `1.9`, `010` equal to `10`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map((part) => BigInt(part));
  const right = b.split('.').map((part) => BigInt(part));
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i] ?? 0n;
    const y = right[i] ?? 0n;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** State of one migration, comparing the folder with the database. */
export type MigrationState = 'applied' | 'pending' | 'checksum mismatch' | 'missing file' | 'out of order';

/** One row of `graphdb migrate info`. */
export interface MigrationStatus {
  readonly version: string;
  readonly description: string;
  readonly file: string;
  readonly state: MigrationState;
  readonly installedOn: string | null;
  readonly executionTimeMs: number | null;
  readonly recordedChecksum: string | null;
  readonly fileChecksum: string | null;
}

/** Compares the folder with what the database recorded. */
export function migrationStatus(files: readonly MigrationFile[], applied: readonly AppliedMigration[]): MigrationStatus[] {
  const byVersion = new Map(applied.map((a) => [canonical(a.version), a]));
  const newestApplied = applied.reduce<string | null>(
    (max, a) => (max === null || compareVersions(a.version, max) > 0 ? a.version : max),
    null,
  );
  const rows: MigrationStatus[] = files.map((file) => {
    const record = byVersion.get(canonical(file.version));
    byVersion.delete(canonical(file.version));
    if (record === undefined) {
      const late = newestApplied !== null && compareVersions(file.version, newestApplied) < 0;
      return status(file.version, file.description, file.file, late ? 'out of order' : 'pending', null, file.checksum);
    }
    const state = record.checksum === file.checksum ? 'applied' : 'checksum mismatch';
    return { ...status(file.version, file.description, file.file, state, record, file.checksum) };
  });
  for (const record of byVersion.values()) rows.push(status(record.version, record.description, record.file, 'missing file', record, null));
  return rows.sort((a, b) => compareVersions(a.version, b.version));
}

function status(
  version: string,
  description: string,
  file: string,
  state: MigrationState,
  record: AppliedMigration | null,
  fileChecksum: string | null,
): MigrationStatus {
  return {
    version,
    description,
    file,
    state,
    installedOn: record?.installedOn ?? null,
    executionTimeMs: record?.executionTimeMs ?? null,
    recordedChecksum: record?.checksum ?? null,
    fileChecksum,
  };
}

function canonical(version: string): string {
  return version
    .split('.')
    .map((part) => BigInt(part).toString())
    .join('.');
}
