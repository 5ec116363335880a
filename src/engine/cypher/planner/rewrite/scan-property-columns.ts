/**
 * Rewrite pass: an aggregation over a node scan that reads the node only through its properties
 * (`MATCH (p:Person) WHERE p.age > 30 RETURN p.city, count(*), avg(p.age)`) scans property
 * columns instead of binding nodes (NodePropertyScan): each `p.key` becomes a column variable,
 * so the runtime can read only those keys, in batches, without per-node lookups.
 *
 * Only `Aggregation ← Filter* ← (AllNodesScan | NodeByLabelScan)` qualifies: the aggregation drops
 * the node variable, so nothing above can see that it is gone, and no write can run while the
 * scan is read. Every mention of the node inside that chain must be `node.key`; `count(node)`
 * counts rows (a scanned node is never null) and becomes `count(*)`. Anything else (labels(p),
 * p itself, a pattern, a comprehension binding a variable of the same name) keeps the plan.
 */
import { Kind } from '../../ast/index.js';
import type { Expression } from '../../ast/index.js';
import { mentionedVariables, substitute, variable } from '../ast-utils.js';
import type { AggregateItem } from '../logical/aggregation.js';
import type { Filter } from '../logical/filter.js';
import type { LogicalOperator } from '../logical/logical-operator.js';
import type { PropertyColumn } from '../logical/node-property-scan.js';
import type { NamedExpression } from '../logical/projection.js';
import { mapChildren } from '../plan-tree.js';

/** Rewrites `node.key` into column variables, remembering the columns it needs. */
class ColumnCollector {
  readonly columns = new Map<string, PropertyColumn>();

  constructor(private readonly node: string) {}

  /** `expression` over columns, or null when it still needs the node itself. */
  rewrite(expression: Expression): Expression | null {
    const result = substitute(expression, (e) => this.replace(e));
    return mentionedVariables(result).has(this.node) ? null : result;
  }

  private replace(e: Expression): Expression | undefined {
    if (e.kind === Kind.PropertyAccess && e.object.kind === Kind.Variable && e.object.name === this.node) {
      return variable(this.column(e.property));
    }
    if (
      e.kind === Kind.FunctionCall &&
      e.namespace.length === 0 &&
      e.name.toLowerCase() === 'count' &&
      !e.distinct &&
      e.args.length === 1 &&
      e.args[0]!.kind === Kind.Variable &&
      e.args[0].name === this.node
    ) {
      return { kind: Kind.CountStar, ...(e.loc ? { loc: e.loc } : {}) };
    }
    return undefined;
  }

  private column(key: string): string {
    let column = this.columns.get(key);
    if (column === undefined) {
      column = { key, name: `  ${this.node}.${key}` };
      this.columns.set(key, column);
    }
    return column.name;
  }
}

function rewriteNamed(items: readonly NamedExpression[], collector: ColumnCollector): NamedExpression[] | null {
  const out: NamedExpression[] = [];
  for (const item of items) {
    const expression = collector.rewrite(item.expression);
    if (expression === null) return null;
    out.push({ ...item, expression });
  }
  return out;
}

function rewriteAggregates(items: readonly AggregateItem[], collector: ColumnCollector): AggregateItem[] | null {
  const out: AggregateItem[] = [];
  for (const item of items) {
    const call = collector.rewrite(item.call);
    if (call === null) return null;
    out.push({ ...item, call });
  }
  return out;
}

/** Applies the rewrite wherever an Aggregation sits on a property-only node scan. */
export function scanPropertyColumns(op: LogicalOperator): LogicalOperator {
  const rewritten = mapChildren(op, scanPropertyColumns);
  if (rewritten.op !== 'Aggregation') return rewritten;
  const filters: Filter[] = [];
  let scan = rewritten.input;
  while (scan.op === 'Filter') {
    filters.push(scan);
    scan = scan.input;
  }
  if (scan.op !== 'AllNodesScan' && scan.op !== 'NodeByLabelScan') return rewritten;
  const collector = new ColumnCollector(scan.variable);
  const groupings = rewriteNamed(rewritten.groupings, collector);
  const aggregates = rewriteAggregates(rewritten.aggregates, collector);
  const predicates = filters.map((f) => collector.rewrite(f.predicate));
  if (groupings === null || aggregates === null || predicates.some((p) => p === null)) return rewritten;
  let input: LogicalOperator = {
    op: 'NodePropertyScan',
    input: scan.input,
    variable: scan.variable,
    label: scan.op === 'NodeByLabelScan' ? scan.label : null,
    columns: [...collector.columns.values()],
  };
  for (let i = filters.length - 1; i >= 0; i--) input = { op: 'Filter', input, predicate: predicates[i]! };
  return { ...rewritten, input, groupings, aggregates };
}
