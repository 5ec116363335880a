/**
 * Neo4j 5's DBMS and planner-maintenance procedures that apply to a single server:
 * `dbms.showCurrentUser`, `dbms.listConfig`, `dbms.info`, `db.clearQueryCaches`,
 * `db.prepareForReplanning`, `db.resampleIndex`, `db.resampleOutdatedIndexes`.
 *
 * Statistics: the planner reads exact counts from the store and re-checks them while a plan is
 * cached (see the plan cache), so there is no sample to refresh; the resample procedures check
 * their argument as Neo4j does, and `db.prepareForReplanning` empties the query caches so the
 * next statements are planned against current counts.
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import type { CypherValue } from '../../values/types.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

const field = (name: string, type: string, defaultValue?: CypherValue) =>
  defaultValue === undefined ? { name, type } : { name, type, default: defaultValue };

function clearCaches(ctx: ProcedureContext): number {
  return ctx.admin?.clearQueryCaches?.() ?? 0;
}

/** The DBMS procedures. */
export const dbmsProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'dbms.showCurrentUser',
    inputs: [],
    outputs: [field('username', 'STRING'), field('roles', 'LIST<STRING>'), field('flags', 'LIST<STRING>')],
    mode: 'DBMS',
    description: 'Show the current user.',
    call: (_args, ctx) => {
      const user = ctx.admin?.currentUser;
      return [[user?.username ?? null, user === undefined ? ['admin'] : [...user.roles], []]];
    },
  },
  {
    name: 'dbms.listConfig',
    inputs: [field('searchString', 'STRING', '')],
    outputs: [
      field('name', 'STRING'),
      field('description', 'STRING'),
      field('value', 'STRING'),
      field('dynamic', 'BOOLEAN'),
      field('defaultValue', 'STRING'),
      field('startupValue', 'STRING'),
      field('explicitlySet', 'BOOLEAN'),
      field('validValues', 'STRING'),
    ],
    mode: 'DBMS',
    description: 'List the currently active configuration settings of graphdb (admin only).',
    call: (args, ctx) => {
      if (ctx.admin?.isAdmin?.() === false) {
        throw graphError(
          StatusCodes.Forbidden,
          'Executing admin procedure `dbms.listConfig` is not allowed: it needs the admin permission.',
        );
      }
      const search = typeof args[0] === 'string' ? args[0].toLowerCase() : '';
      return (ctx.admin?.settings?.() ?? [])
        .filter((s) => s.name.toLowerCase().includes(search))
        .map((s) => [s.name, s.description, s.value, s.isDynamic, s.defaultValue, s.startupValue, s.isExplicitlySet, s.validValues]);
    },
  },
  {
    name: 'dbms.info',
    inputs: [],
    outputs: [field('id', 'STRING'), field('name', 'STRING'), field('creationDate', 'STRING')],
    mode: 'DBMS',
    description: 'Provides information regarding the DBMS.',
    call: (_args, ctx) => {
      const info = ctx.admin?.dbmsInfo?.();
      return [[info?.id ?? null, info?.name ?? 'graphdb', info?.creationDate ?? null]];
    },
  },
  {
    name: 'db.clearQueryCaches',
    inputs: [],
    outputs: [field('value', 'STRING')],
    mode: 'DBMS',
    description: 'Clears all query caches.',
    call: (_args, ctx) => {
      const cleared = clearCaches(ctx);
      return [[cleared === 0 ? 'Query cache already empty.' : `Query caches successfully cleared of ${cleared} queries.`]];
    },
  },
  {
    name: 'db.prepareForReplanning',
    inputs: [field('timeOutSeconds', 'INTEGER', 300n)],
    outputs: [],
    mode: 'READ',
    description:
      'Triggers an index resample and waits for it to complete, and after that clears query caches. After this procedure has finished queries will be planned using the latest database statistics.',
    call: (args, ctx) => {
      if (typeof args[0] === 'bigint' && args[0] < 0n) throw graphError(StatusCodes.ProcedureCallFailed, 'Timeout must be non-negative.');
      clearCaches(ctx);
      return [];
    },
  },
  {
    name: 'db.resampleIndex',
    inputs: [field('indexName', 'STRING')],
    outputs: [],
    mode: 'READ',
    description: 'Schedule resampling of an index (graphdb keeps exact index statistics, so this only checks that the index exists).',
    call: (args, ctx) => {
      const name = args[0];
      if (!ctx.reader.indexes().some((index) => index.name === name)) {
        throw graphError(
          StatusCodes.ProcedureCallFailed,
          `Failed to invoke procedure \`db.resampleIndex\`: Caused by: No such index '${valueText(name)}'`,
        );
      }
      return [];
    },
  },
  {
    name: 'db.resampleOutdatedIndexes',
    inputs: [],
    outputs: [],
    mode: 'READ',
    description: 'Schedule resampling of all outdated indexes (graphdb keeps exact index statistics: none is ever outdated).',
    call: () => [],
  },
];
