/**
 * Schema and administration commands, each run as a single operator: CREATE/DROP INDEX and
 * CONSTRAINT through the storage writer, SHOW INDEXES/CONSTRAINTS/DATABASES from the catalog,
 * CREATE/DROP DATABASE through the engine facade.
 */
import { CypherTypeError, StatusCodes, graphError } from '../../../errors/index.js';
import type { ConstraintDefinition, ConstraintType as StoreConstraintType, IndexType } from '../../../storage/graph-store.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { CreateConstraint, CreateIndex, CypherTypeNode, Parameter, SymbolicName } from '../../ast/index.js';
import type { CommandCall } from '../../planner/logical/command-call.js';
import type { ExecutionContext } from '../execution-context.js';
import { requireWriter } from '../execution-context.js';
import type { Row, RowStream } from '../row.js';
import { PAUSE } from '../row.js';
import { showRows } from '../show-rows.js';
import { runCatalogCommand } from './catalog-commands.js';
import { isSecurityCommand, runSecurityCommand } from './security-commands.js';
import type { Evaluator } from '../expressions/evaluator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

function nameOf(name: string | Parameter | null, ctx: ExecutionContext): string | null {
  if (name === null || typeof name === 'string') return name;
  const value = ctx.parameters.get(name.name);
  return typeof value === 'string' ? value : null;
}

function symbolic(name: SymbolicName, ctx: ExecutionContext): string {
  if (name.name !== null) return name.name;
  const value = name.parameter ? ctx.parameters.get(name.parameter.name) : null;
  if (typeof value !== 'string') throw graphError(StatusCodes.InvalidRequest, 'Expected a database name');
  return value;
}

function typeText(type: CypherTypeNode | null): string | null {
  if (type === null) return null;
  if (type.kind === Kind.SimpleType) return type.name;
  if (type.kind === Kind.ListType) return `LIST<${typeText(type.elementType)}>`;
  return type.types.map(typeText).join(' | ');
}

function constraintType(c: CreateConstraint): StoreConstraintType {
  const rel = c.entity === 'RELATIONSHIP';
  switch (c.constraintType) {
    case 'UNIQUE':
      return rel ? 'RELATIONSHIP_UNIQUENESS' : 'UNIQUENESS';
    case 'NODE_KEY':
      return 'NODE_KEY';
    case 'RELATIONSHIP_KEY':
      return 'RELATIONSHIP_KEY';
    case 'NOT_NULL':
      return rel ? 'RELATIONSHIP_PROPERTY_EXISTENCE' : 'NODE_PROPERTY_EXISTENCE';
    case 'PROPERTY_TYPE':
      return rel ? 'RELATIONSHIP_PROPERTY_TYPE' : 'NODE_PROPERTY_TYPE';
  }
}

function defaultName(kind: string, labels: readonly string[], properties: readonly string[]): string {
  return `${kind}_${labels.join('_')}_${properties.join('_')}`.toLowerCase();
}

/** The `OPTIONS {...}` map of a CREATE INDEX (e.g. a VECTOR index's `indexConfig`), evaluated once. */
function indexOptions(options: Evaluator | null, ctx: ExecutionContext): ReadonlyMap<string, CypherValue> {
  if (options === null) return new Map();
  const value = options({}, ctx);
  if (value === null) return new Map();
  if (!(value instanceof Map)) throw new CypherTypeError('Index OPTIONS must be a map');
  return value;
}

/** CREATE INDEX as steps (population yields per entity). */
function createIndex(c: CreateIndex, options: Evaluator | null, ctx: ExecutionContext): Generator<void, boolean> {
  const type: IndexType = c.indexType === null || c.indexType === 'BTREE' ? 'RANGE' : c.indexType;
  return requireWriter(ctx).createIndexSteps(
    {
      name: nameOf(c.name, ctx) ?? defaultName('index', c.labels, c.properties),
      type,
      entityType: c.entity,
      labelsOrTypes: c.labels,
      properties: c.properties,
      options: indexOptions(options, ctx),
    },
    c.ifNotExists,
  );
}

function createConstraint(c: CreateConstraint, ctx: ExecutionContext): void {
  const definition: ConstraintDefinition = {
    name: nameOf(c.name, ctx) ?? defaultName('constraint', [c.labelOrType], c.properties),
    type: constraintType(c),
    entityType: c.entity,
    labelsOrTypes: [c.labelOrType],
    properties: c.properties,
    propertyType: typeText(c.propertyType),
  };
  requireWriter(ctx).createConstraint(definition, c.ifNotExists);
}

/** Database administration runs outside any graph transaction (see `runAdminCommand`); returns the system updates. */
export async function runAdminCommand(op: CommandCall, ctx: ExecutionContext): Promise<number> {
  const c = op.command;
  if (isSecurityCommand(c)) return runSecurityCommand(c, ctx);
  if (await runCatalogCommand(c, ctx)) return 1;
  if (c.kind === Kind.CreateDatabase) await ctx.admin.createDatabase(symbolic(c.name, ctx), c.ifNotExists);
  else if (c.kind === Kind.DropDatabase) await ctx.admin.dropDatabase(symbolic(c.name, ctx), c.ifExists);
  else throw graphError(StatusCodes.UnsupportedOperation, `${c.kind} is not supported`);
  return 1;
}

/** Runs the command once and emits its result rows (`options` is CREATE INDEX's OPTIONS or SHOW DATABASE's name). */
function run(op: CommandCall, options: Evaluator | null, ctx: ExecutionContext): Row[] {
  const c = op.command;
  switch (c.kind) {
    case Kind.DropIndex:
      requireWriter(ctx).dropIndex(nameOf(c.name, ctx) ?? defaultName('index', c.label ? [c.label] : [], c.properties), c.ifExists);
      return [];
    case Kind.CreateConstraint:
      createConstraint(c, ctx);
      return [];
    case Kind.DropConstraint:
      requireWriter(ctx).dropConstraint(nameOf(c.name, ctx) ?? '', c.ifExists);
      return [];
    case Kind.Show:
      return showRows(c, options, ctx);
    default:
      throw graphError(StatusCodes.UnsupportedOperation, `${c.kind} is not supported`);
  }
}

/** CommandCall. */
export function mapCommandCall(op: CommandCall, m: Mapper): PhysicalOperator {
  const c = op.command;
  const options =
    c.kind === Kind.CreateIndex && c.options !== null
      ? m.compile(c.options)
      : c.kind === Kind.Show && c.name !== null
        ? m.compile(c.name)
        : null;
  if (c.kind === Kind.CreateIndex) {
    // Populating an index over existing data can take seconds: pause between time slices.
    return function* (ctx): RowStream {
      const steps = createIndex(c, options, ctx);
      while (steps.next().done !== true) if (ctx.scheduler.tick()) yield PAUSE;
    };
  }
  return function* (ctx): RowStream {
    yield* run(op, options, ctx);
  };
}
