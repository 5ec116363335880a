/**
 * Version history of one entity (docs/temporal-reads.md): `db.temporal.nodeVersions(node)` and
 * `db.temporal.relationshipVersions(relationship)` list the versions the MVCC history still holds,
 * oldest first, as the calling transaction sees them (a temporal transaction sees the chain as it
 * was at its version). The argument is a node/relationship, an element id or an integer id, so the
 * versions of a deleted entity can be listed too.
 */
import { ArgumentError, graphError, StatusCodes } from '../../errors/index.js';
import { isNode, isRelationship } from '../../values/kinds.js';
import { CypherDateTime, type CypherValue } from '../../values/types.js';
import type { EntityVersion } from '../../mvcc/entity-versions.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';

/** One listed version: the storage's version fields and commit times (epoch ms, null when unknown). */
export interface ListedVersion extends EntityVersion {
  readonly from: number | null;
  readonly to: number | null;
}

function dateTime(ms: number | null): CypherDateTime | null {
  if (ms === null) return null;
  return new CypherDateTime(BigInt(Math.floor(ms / 1000)), (ms % 1000) * 1_000_000, 0, null);
}

function entityId(value: CypherValue, kind: 'node' | 'relationship', ctx: ProcedureContext): bigint {
  if (kind === 'node' ? isNode(value) : isRelationship(value)) return (value as { id: bigint }).id;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string') {
    const id = ctx.reader.idFromElementId(value);
    if (id !== null && value.startsWith(kind === 'node' ? '4:' : '5:')) return id;
  }
  throw new ArgumentError(`db.temporal.${kind}Versions expects a ${kind}, its element id or its integer id.`);
}

function versionsOf(ctx: ProcedureContext, kind: 'node' | 'relationship', arg: CypherValue): readonly ListedVersion[] {
  const list = ctx.admin?.entityVersions;
  if (list === undefined) throw graphError(StatusCodes.ProcedureCallFailed, 'Version history is not available in this engine.');
  if (arg === null) return [];
  return list(ctx.databaseName, kind, entityId(arg, kind, ctx), ctx.reader.version);
}

const COMMON_OUTPUTS = [
  { name: 'version', type: 'INTEGER' },
  { name: 'validFrom', type: 'DATETIME' },
  { name: 'validTo', type: 'DATETIME?' },
  { name: 'endVersion', type: 'INTEGER?' },
  { name: 'deleted', type: 'BOOLEAN' },
] as const;

function common(v: ListedVersion): CypherValue[] {
  return [v.version, dateTime(v.from), dateTime(v.to), v.endVersion, v.deleted];
}

/** The version-history procedures. */
export const historyProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'db.temporal.nodeVersions',
    inputs: [{ name: 'node', type: 'ANY' }],
    outputs: [...COMMON_OUTPUTS, { name: 'labels', type: 'LIST<STRING>' }, { name: 'properties', type: 'MAP' }],
    mode: 'READ',
    description:
      'Lists the retained versions of a node (a node, element id or id), oldest first: the commit version and time each became valid and stopped being valid, its labels and properties.',
    call: (args, ctx) => versionsOf(ctx, 'node', args[0] ?? null).map((v) => [...common(v), [...v.labels], v.properties]),
  },
  {
    name: 'db.temporal.relationshipVersions',
    inputs: [{ name: 'relationship', type: 'ANY' }],
    outputs: [...COMMON_OUTPUTS, { name: 'type', type: 'STRING' }, { name: 'properties', type: 'MAP' }],
    mode: 'READ',
    description:
      'Lists the retained versions of a relationship (a relationship, element id or id), oldest first: the commit version and time each became valid and stopped being valid, its type and properties.',
    call: (args, ctx) => versionsOf(ctx, 'relationship', args[0] ?? null).map((v) => [...common(v), v.type, v.properties]),
  },
];
