/**
 * EXPLAIN/PROFILE output: the logical plan as Neo4j-shaped plan descriptions, and a compact
 * one-line-per-operator text form used by planner tests.
 */
import type { PlanDescription } from '../../session/types.js';
import type { CypherValue } from '../../values/types.js';
import { Kind } from '../ast/index.js';
import type { Expression } from '../ast/index.js';
import type { IdSeekSpec } from './logical/id-seek.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import { childrenOf } from './plan-tree.js';

/** Per-operator PROFILE figures. */
export interface ProfileFigures {
  readonly rows: number;
  readonly dbHits: number;
}

/** A short readable rendering of an expression for plan details. */
export function expressionText(e: Expression): string {
  switch (e.kind) {
    case Kind.Variable:
      return e.name.trim();
    case Kind.Parameter:
      return `$${e.name}`;
    case Kind.IntegerLiteral:
      return String(e.value);
    case Kind.FloatLiteral:
      return String(e.value);
    case Kind.StringLiteral:
      return JSON.stringify(e.value);
    case Kind.BooleanLiteral:
      return String(e.value);
    case Kind.NullLiteral:
      return 'null';
    case Kind.PropertyAccess:
      return `${expressionText(e.object)}.${e.property}`;
    case Kind.BinaryOperation:
      return `${expressionText(e.left)} ${e.operator} ${expressionText(e.right)}`;
    case Kind.UnaryOperation:
      return `${e.operator} ${expressionText(e.operand)}`;
    case Kind.FunctionCall:
      return `${[...e.namespace, e.name].join('.')}(${e.args.map(expressionText).join(', ')})`;
    case Kind.CountStar:
      return 'count(*)';
    case Kind.LabelPredicate:
      return `${expressionText(e.operand)}:${e.labels.kind === Kind.LabelName ? e.labels.name : '...'}`;
    default:
      return e.kind;
  }
}

function idSeekText(ids: IdSeekSpec): string {
  return ids.kind === 'equals' ? `= ${expressionText(ids.value)}` : `IN ${expressionText(ids.list)}`;
}

/** Details text of one operator (Neo4j's `Details` argument). */
export function operatorDetails(op: LogicalOperator): string {
  switch (op.op) {
    case 'AllNodesScan':
      return op.variable.trim();
    case 'NodeByLabelScan':
      return `${op.variable.trim()}:${op.label}`;
    case 'NodeByDynamicLabelScan':
      return `${op.variable.trim()}:$${op.any ? 'any' : ''}(${expressionText(op.labels)})`;
    case 'NodePropertyScan': {
      const label = op.label === null ? '' : `:${op.label}`;
      return `${op.variable.trim()}${label} {${op.columns.map((c) => `.${c.key}`).join(', ')}}`;
    }
    case 'NodeVectorTopK': {
      const filter = op.requireProperty ? ` WHERE ${op.variable.trim()}.${op.property} IS NOT NULL` : '';
      return `${op.variable.trim()}:${op.label}${filter} ORDER BY ${expressionText(op.score)} DESC LIMIT ${expressionText(op.count)}`;
    }
    case 'NodeIndexSeek':
      return `INDEX ${op.indexName} ${op.variable.trim()}:${op.label}(${op.property}) ${op.seek.kind}`;
    case 'RelationshipIndexSeek':
      return `INDEX ${op.indexName} (${op.left.trim()})-[${op.relationship.trim()}:${op.type}(${op.property})]-(${op.right.trim()}) equals`;
    case 'NodeByIdSeek':
    case 'NodeByElementIdSeek': {
      const fn = op.op === 'NodeByIdSeek' ? 'id' : 'elementId';
      const label = op.label === null ? '' : `:${op.label}`;
      return `${op.variable.trim()}${label} WHERE ${fn}(${op.variable.trim()}) ${idSeekText(op.ids)}`;
    }
    case 'DirectedRelationshipByIdSeek':
    case 'UndirectedRelationshipByIdSeek':
    case 'DirectedRelationshipByElementIdSeek':
    case 'UndirectedRelationshipByElementIdSeek': {
      const fn = op.op.endsWith('ElementIdSeek') ? 'elementId' : 'id';
      const types = op.types.length ? `:${op.types.join('|')}` : '';
      const label = op.leftLabel === null ? '' : `:${op.leftLabel}`;
      const [l, r] = op.direction === 'in' ? ['<-', '-'] : op.direction === 'out' ? ['-', '->'] : ['-', '-'];
      return `(${op.left.trim()}${label})${l}[${op.relationship.trim()}${types}]${r}(${op.right.trim()}) WHERE ${fn}(${op.relationship.trim()}) ${idSeekText(op.ids)}`;
    }
    case 'Expand': {
      const types = op.types.length ? `:${op.types.join('|')}` : '';
      const hops = op.length ? `*${op.length.min}..${op.length.max === Number.MAX_SAFE_INTEGER ? '' : op.length.max}` : '';
      const [l, r] = op.direction === 'in' ? ['<-', '-'] : op.direction === 'out' ? ['-', '->'] : ['-', '-'];
      return `(${op.from.trim()})${l}[${op.relationship.trim()}${types}${hops}]${r}(${op.to.trim()})`;
    }
    case 'RelationshipCountFromDegree': {
      const types = op.types.length ? `:${op.types.join('|')}` : '';
      const [l, r] = op.direction === 'in' ? ['<-', '-'] : ['-', '->'];
      return `count((${op.from.trim()})${l}[${types}]${r}()) AS ${op.name.trim()}`;
    }
    case 'Filter':
      return expressionText(op.predicate);
    case 'Projection':
      return op.items.map((i) => `${expressionText(i.expression)} AS ${i.name.trim()}`).join(', ');
    case 'Aggregation':
      return [...op.groupings.map((g) => g.name.trim()), ...op.aggregates.map((a) => `${expressionText(a.call)} AS ${a.name.trim()}`)].join(
        ', ',
      );
    case 'Sort':
      return op.keys.map((k) => `${expressionText(k.expression)} ${k.descending ? 'DESC' : 'ASC'}`).join(', ');
    case 'Skip':
    case 'Limit':
      return expressionText(op.count);
    case 'Unwind':
      return `${expressionText(op.expression)} AS ${op.variable.trim()}`;
    case 'ProduceResults':
      return op.columns.join(', ');
    case 'ProcedureCall':
      return op.name;
    default:
      return '';
  }
}

function identifiers(op: LogicalOperator): string[] {
  const names = new Set<string>();
  const record = op as unknown as Record<string, unknown>;
  for (const key of ['variable', 'from', 'relationship', 'to', 'left', 'right', 'pathVariable']) {
    const v = record[key];
    if (typeof v === 'string') names.add(v.trim());
  }
  return [...names].filter((n) => n.length > 0);
}

/** Neo4j-shaped plan description of `plan`; with `profile`, each operator gets rows and db hits. */
export function describePlan(plan: LogicalOperator, profile?: ReadonlyMap<LogicalOperator, ProfileFigures>): PlanDescription {
  const children = childrenOf(plan).filter((c) => c.op !== 'Argument' || plan.op === 'Optional' || plan.op === 'SubqueryApply');
  const figures = profile?.get(plan);
  const args: Record<string, CypherValue> = { Details: operatorDetails(plan) };
  const childDescriptions = children.map((c) => describePlan(c, profile));
  const childHits = childrenOf(plan).reduce((sum, c) => sum + (profile?.get(c)?.dbHits ?? 0), 0);
  return {
    operatorType: plan.op,
    identifiers: identifiers(plan),
    arguments: args,
    children: childDescriptions,
    ...(figures ? { rows: figures.rows, dbHits: Math.max(0, figures.dbHits - childHits) } : {}),
  };
}

/** Compact text form: one operator per line, children indented. */
export function printPlan(plan: LogicalOperator, indent = 0): string {
  const details = operatorDetails(plan);
  const line = `${' '.repeat(indent)}${plan.op}${details ? ` ${details}` : ''}`;
  return [line, ...childrenOf(plan).map((c) => printPlan(c, indent + 2))].join('\n');
}
