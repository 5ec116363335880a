/**
 * The rows of SHOW INDEXES / CONSTRAINTS / DATABASES / PROCEDURES / FUNCTIONS, each with every
 * column of the target's full set (see `planner/show-columns.ts`). The type words before the
 * target (`SHOW FULLTEXT INDEXES`, `SHOW NODE UNIQUE CONSTRAINTS`, `SHOW BUILT IN FUNCTIONS`) and
 * a database name (`SHOW DATABASE x`) select rows here; YIELD/WHERE/RETURN are planned on top.
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import type { ConstraintDefinition, IndexDefinition } from '../../storage/graph-store.js';
import type { CypherValue } from '../../values/types.js';
import { Kind } from '../ast/index.js';
import type { Show } from '../ast/index.js';
import { procedureSignature } from '../procedures/registry.js';
import type { Evaluator } from './expressions/evaluator.js';
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './row.js';
import { aliasRows, aliasesOf, limitRows } from './catalog-show-rows.js';
import { nameStrings, settingRows, terminationRows, transactionRows } from './admin-show-rows.js';
import { securityAdmin } from './operators/security-commands.js';

const INDEX_PROVIDERS: Readonly<Record<string, string>> = {
  RANGE: 'range-1.0',
  TEXT: 'text-2.0',
  POINT: 'point-1.0',
  LOOKUP: 'token-lookup-1.0',
  FULLTEXT: 'fulltext-1.0',
  VECTOR: 'vector-2.0',
};

function words(filter: string | null): ReadonlySet<string> {
  return new Set((filter ?? '').split(' ').filter((w) => w !== '' && w !== 'ALL'));
}

function quoted(names: readonly string[], subject: string): string {
  return names.map((p) => `${subject}.\`${p}\``).join(', ');
}

function indexCreateStatement(i: IndexDefinition): string {
  if (i.type === 'LOOKUP') {
    const on = i.entityType === 'NODE' ? 'FOR (e) ON EACH labels(e)' : 'FOR ()-[e]-() ON EACH type(e)';
    return `CREATE LOOKUP INDEX \`${i.name}\` ${on}`;
  }
  const pattern = i.entityType === 'NODE' ? `(e:\`${i.labelsOrTypes.join('`|`')}\`)` : `()-[e:\`${i.labelsOrTypes.join('`|`')}\`]-()`;
  const on = i.type === 'FULLTEXT' ? `ON EACH [${quoted(i.properties, 'e')}]` : `ON (${quoted(i.properties, 'e')})`;
  return `CREATE ${i.type} INDEX \`${i.name}\` FOR ${pattern} ${on}`;
}

/** Why a FULLTEXT/VECTOR index failed in the search services (over their heap bound), or null. */
function searchIndexFailure(i: IndexDefinition, ctx: ExecutionContext): string | null {
  if (i.type !== 'FULLTEXT' && i.type !== 'VECTOR') return null;
  return ctx.admin.searchIndexFailure?.(ctx.database, i.name) ?? null;
}

function indexRows(s: Show, ctx: ExecutionContext): Row[] {
  const wanted = words(s.filter);
  return ctx.reader
    .indexes()
    .map((i, n) => ({ index: i, id: BigInt(n + 1) }))
    .filter(({ index }) => wanted.size === 0 || wanted.has(index.type) || (wanted.has('BTREE') && index.type === 'RANGE'))
    .map(({ index: i, id }) => ({ index: i, id, failure: searchIndexFailure(i, ctx) }))
    .map(({ index: i, id, failure }) => ({
      id,
      name: i.name,
      state: failure === null ? i.state : 'FAILED',
      populationPercent: failure === null && i.state === 'ONLINE' ? 100 : 0,
      type: i.type,
      entityType: i.entityType,
      labelsOrTypes: [...i.labelsOrTypes],
      properties: [...i.properties],
      indexProvider: INDEX_PROVIDERS[i.type] ?? null,
      owningConstraint: i.owningConstraint,
      lastRead: null,
      readCount: null,
      trackedSince: null,
      options: i.options,
      failureMessage: failure ?? '',
      createStatement: indexCreateStatement(i),
    }));
}

/** Whether a constraint matches the type words (`UNIQUE`, `KEY`, `EXIST(S|ENCE)`, `PROPERTY TYPE`, `NODE`, `REL[ATIONSHIP]`). */
function constraintMatches(c: ConstraintDefinition, wanted: ReadonlySet<string>): boolean {
  if (wanted.has('NODE') && c.entityType !== 'NODE') return false;
  if ((wanted.has('REL') || wanted.has('RELATIONSHIP')) && c.entityType !== 'RELATIONSHIP') return false;
  if (wanted.has('UNIQUE') && !c.type.endsWith('UNIQUENESS')) return false;
  if (wanted.has('KEY') && !c.type.endsWith('_KEY')) return false;
  if ((wanted.has('EXIST') || wanted.has('EXISTS') || wanted.has('EXISTENCE')) && !c.type.endsWith('EXISTENCE')) return false;
  if (wanted.has('TYPE') && !c.type.endsWith('PROPERTY_TYPE')) return false;
  return true;
}

function constraintCreateStatement(c: ConstraintDefinition): string {
  const pattern = c.entityType === 'NODE' ? `(e:\`${c.labelsOrTypes.join('`|`')}\`)` : `()-[e:\`${c.labelsOrTypes.join('`|`')}\`]-()`;
  const props = `(${quoted(c.properties, 'e')})`;
  const requirement = c.type.endsWith('UNIQUENESS')
    ? `${props} IS UNIQUE`
    : c.type.endsWith('_KEY')
      ? `${props} IS ${c.entityType === 'NODE' ? 'NODE' : 'RELATIONSHIP'} KEY`
      : c.type.endsWith('EXISTENCE')
        ? `${props} IS NOT NULL`
        : `${props} IS :: ${c.propertyType ?? 'ANY'}`;
  return `CREATE CONSTRAINT \`${c.name}\` FOR ${pattern} REQUIRE ${requirement}`;
}

function constraintRows(s: Show, ctx: ExecutionContext): Row[] {
  const wanted = words(s.filter);
  return ctx.reader
    .constraints()
    .map((c, n) => ({ constraint: c, id: BigInt(n + 1) }))
    .filter(({ constraint }) => constraintMatches(constraint, wanted))
    .map(({ constraint: c, id }) => {
      const owns = c.type.endsWith('UNIQUENESS') || c.type.endsWith('_KEY');
      return {
        id,
        name: c.name,
        type: c.type,
        entityType: c.entityType,
        labelsOrTypes: [...c.labelsOrTypes],
        properties: [...c.properties],
        ownedIndex: owns ? c.name : null,
        propertyType: c.propertyType,
        options: owns
          ? new Map<string, CypherValue>([
              ['indexProvider', 'range-1.0'],
              ['indexConfig', new Map()],
            ])
          : null,
        createStatement: constraintCreateStatement(c),
      };
    });
}

function databaseRows(s: Show, name: string | null, ctx: ExecutionContext): Row[] {
  const onlyDefault = s.target === 'DEFAULT DATABASE' || s.target === 'HOME DATABASE';
  return ctx.admin
    .listDatabases()
    .filter((d) => (!onlyDefault || d.default) && (name === null || d.name === (ctx.admin.directory?.resolve(name) ?? name)))
    .map((d) => ({
      name: d.name,
      type: d.type ?? (d.name === 'system' ? 'system' : 'standard'),
      aliases: aliasesOf(d.name, ctx),
      access: d.type === 'composite' ? 'read-only' : 'read-write',
      address: 'localhost:7687',
      role: d.type === 'composite' ? null : 'primary',
      writer: d.type !== 'composite',
      requestedStatus: d.status,
      currentStatus: d.status,
      statusMessage: '',
      default: d.default,
      home: d.default,
      constituents: [...(d.constituents ?? [])],
    }));
}

function procedureRows(ctx: ExecutionContext): Row[] {
  return ctx.admin.procedures.list().map((p) => ({
    name: p.name,
    description: p.description,
    mode: p.mode,
    worksOnSystem: p.mode === 'DBMS',
    signature: procedureSignature(p),
    admin: false,
    isDeprecated: false,
  }));
}

function functionRows(s: Show, ctx: ExecutionContext): Row[] {
  const wanted = words(s.filter);
  if (wanted.has('USER')) return [];
  return ctx.admin.functions.list().map((f) => ({
    name: f.name,
    category: f.category,
    description: f.description,
    signature: f.signature,
    isBuiltIn: true,
    aggregating: f.kind === 'aggregate',
    isDeprecated: false,
  }));
}

/** A `SHOW DATABASE name` name: a bare symbolic name, or a string or parameter evaluated once. */
function databaseName(s: Show, name: Evaluator | null, ctx: ExecutionContext): string | null {
  if (s.name?.kind === Kind.Variable) return s.name.name;
  if (name === null) return null;
  const value = name({}, ctx);
  if (typeof value !== 'string') throw graphError(StatusCodes.InvalidRequest, 'Expected a database name');
  return value;
}

/** The rows a SHOW command lists, every column of its target set. */
export function showRows(s: Show, name: Evaluator | null, ctx: ExecutionContext): Row[] {
  switch (s.target) {
    case 'INDEXES':
      return indexRows(s, ctx);
    case 'CONSTRAINTS':
      return constraintRows(s, ctx);
    case 'DATABASES':
    case 'DATABASE':
    case 'DEFAULT DATABASE':
    case 'HOME DATABASE':
      return databaseRows(s, databaseName(s, name, ctx), ctx);
    case 'ALIASES':
      return aliasRows(databaseName(s, name, ctx), ctx);
    case 'LIMITS':
      return limitRows(databaseName(s, name, ctx), ctx);
    case 'PROCEDURES':
      return procedureRows(ctx);
    case 'FUNCTIONS':
      return functionRows(s, ctx);
    case 'TRANSACTIONS':
      return transactionRows(name, ctx);
    case 'TERMINATE TRANSACTIONS':
      return terminationRows(name, ctx);
    case 'SETTINGS':
      return settingRows(name, ctx);
    case 'USERS':
    case 'CURRENT USER':
    case 'ROLES':
    case 'ROLES WITH USERS':
    case 'PRIVILEGES':
    case 'ROLE PRIVILEGES':
    case 'USER PRIVILEGES':
      return securityAdmin(ctx).rows(s.target, s.filter, nameStrings(name, ctx));
    default:
      throw graphError(StatusCodes.UnsupportedOperation, `SHOW ${(s as { target: string }).target} is not supported`);
  }
}
