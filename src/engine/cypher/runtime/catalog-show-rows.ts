/**
 * Rows of SHOW ALIASES (Neo4j 5 columns; local aliases only, so location is `local` and the
 * remote columns are null) and SHOW LIMITS (NornicDB columns: one row per known limit of each
 * database, value null when unlimited).
 */
import { DatabaseNotFound } from '../../errors/index.js';
import { LIMIT_NAMES, limitDescription, limitDisplay } from '../../catalog/limit-catalog.js';
import type { CypherValue } from '../../values/types.js';
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './row.js';

/** SHOW ALIASES [name] FOR DATABASES. */
export function aliasRows(name: string | null, ctx: ExecutionContext): Row[] {
  const directory = ctx.admin.directory;
  if (directory === undefined) return [];
  const wanted = name?.toLowerCase() ?? null;
  const aliases = [
    ...directory.listAliases().map((alias) => ({ ...alias, composite: null as string | null })),
    ...directory.composites
      .allConstituents()
      .map((c) => ({ name: `${c.composite}.${c.alias}`, target: c.target, properties: c.properties, composite: c.composite })),
  ].sort((a, b) => a.name.localeCompare(b.name));
  return aliases
    .filter((alias) => wanted === null || alias.name === wanted)
    .map((alias) => ({
      name: alias.name,
      composite: alias.composite,
      database: alias.target,
      location: 'local',
      url: null,
      user: null,
      driver: null,
      defaultLanguage: null,
      properties: new Map<string, CypherValue>(alias.properties),
    }));
}

/** SHOW LIMITS [FOR DATABASE name]: every database but `system` unless one is named. */
export function limitRows(name: string | null, ctx: ExecutionContext): Row[] {
  const directory = ctx.admin.directory;
  const databases = ctx.admin
    .listDatabases()
    .filter((d) => d.type !== 'composite')
    .map((d) => d.name)
    .filter((d) => d !== 'system');
  let selected = databases;
  if (name !== null) {
    const resolved = directory?.resolve(name) ?? name.toLowerCase();
    if (!databases.includes(resolved)) throw new DatabaseNotFound(name);
    selected = [resolved];
  }
  return selected.flatMap((database) => {
    const limits = directory?.limitsOf(database) ?? {};
    return LIMIT_NAMES.map((limit) => ({
      database,
      limit,
      value: limitDisplay(limit, limits[limit]),
      description: limitDescription(limit),
    }));
  });
}

/** The aliases column of SHOW DATABASES. */
export function aliasesOf(database: string, ctx: ExecutionContext): string[] {
  return ctx.admin.directory?.aliasesOf(database) ?? [];
}
