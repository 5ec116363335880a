/**
 * Whether a CREATE needs an Eager between it and the reads feeding it.
 *
 * An Eager makes every read finish before the first write, so a write can never change what a
 * later input row reads. A CREATE leaves existing nodes and relationships as they are, so it can
 * only change what a read sees by adding an entity that read would return. When the reads are
 * node scans and seeks by label (with filters that only look at the bound rows) and the CREATE
 * adds no node carrying one of those labels, nothing it creates can appear in them: the rows can
 * stream into the CREATE (Neo4j plans `MATCH (a:P {id: $a}), (b:P {id: $b}) CREATE (a)-[:R]->(b)`
 * without an Eager too). Anything else (expansions, relationship reads, all-node scans while
 * creating nodes, function calls and subqueries in filters, projections) keeps the Eager.
 */
import { Kind } from '../ast/index.js';
import type { LabelExpression, PatternPart } from '../ast/index.js';
import type { LogicalOperator } from './logical/logical-operator.js';

/** Expression kinds that read nothing but the row, the parameters and the bound entities' own properties and labels. */
const ROW_LOCAL = new Set<string>([
  Kind.IntegerLiteral,
  Kind.FloatLiteral,
  Kind.StringLiteral,
  Kind.BooleanLiteral,
  Kind.NullLiteral,
  Kind.ListLiteral,
  Kind.MapLiteral,
  Kind.MapEntry,
  Kind.Parameter,
  Kind.Variable,
  Kind.PropertyAccess,
  Kind.BinaryOperation,
  Kind.UnaryOperation,
  Kind.IsNull,
  Kind.LabelPredicate,
  Kind.LabelName,
  Kind.LabelAnd,
  Kind.LabelOr,
  Kind.LabelNot,
  Kind.LabelWildcard,
]);

/** True when every AST node below `node` is of a row-local kind. */
function rowLocal(node: unknown): boolean {
  if (Array.isArray(node)) return node.every(rowLocal);
  if (typeof node !== 'object' || node === null) return true;
  const record = node as Record<string, unknown>;
  if (typeof record.kind === 'string' && !ROW_LOCAL.has(record.kind)) return false;
  for (const [key, value] of Object.entries(record)) if (key !== 'loc' && !rowLocal(value)) return false;
  return true;
}

/** The labels read by the node scans below `plan`, or null when it reads anything else. */
function labelsRead(plan: LogicalOperator, into: Set<string>): Set<string> | null {
  switch (plan.op) {
    case 'Argument':
      return into;
    case 'NodeByLabelScan':
      into.add(plan.label);
      return labelsRead(plan.input, into);
    case 'Filter':
      return rowLocal(plan.predicate) ? labelsRead(plan.input, into) : null;
    default:
      return null;
  }
}

/** Label names of a CREATE node pattern, or null when one is dynamic. */
function createdLabels(labels: LabelExpression | null, into: Set<string>): Set<string> | null {
  if (labels === null) return into;
  switch (labels.kind) {
    case Kind.LabelName:
      into.add(labels.name);
      return into;
    case Kind.LabelAnd:
      return createdLabels(labels.left, into) === null ? null : createdLabels(labels.right, into);
    default:
      return null;
  }
}

/**
 * False when `input` (the reads since the last write) cannot see anything `parts` creates, given
 * the variables already bound (`scope`); true otherwise.
 */
export function createNeedsEager(input: LogicalOperator, parts: readonly PatternPart[], scope: readonly string[]): boolean {
  const read = labelsRead(input, new Set());
  if (read === null) return true;
  const bound = new Set(scope);
  for (const part of parts) {
    if (part.element.kind !== Kind.PathPattern) return true;
    for (const element of part.element.elements) {
      if (element.kind === Kind.QuantifiedPath) return true;
      if (element.kind !== Kind.NodePattern) continue;
      const name = element.variable?.name;
      if (name !== undefined && bound.has(name)) continue;
      if (name !== undefined) bound.add(name);
      const labels = createdLabels(element.labels, new Set());
      if (labels === null) return true;
      for (const label of labels) if (read.has(label)) return true;
    }
  }
  return false;
}
