/**
 * SHOW commands as queries: a CommandCall leaf produces one row per listed item with every
 * column of the target, then the ordinary projection planning applies `YIELD` (a WITH over the
 * yielded columns, with its ORDER BY / SKIP / LIMIT / WHERE), a bare `WHERE` (over the default
 * columns) and `RETURN` (any expression, aggregation included).
 */
import { CypherSyntaxError } from '../../errors/index.js';
import { Kind } from '../ast/index.js';
import type { ProjectionBody, ProjectionItem, Show } from '../ast/index.js';
import { mentionedVariables, variable } from './ast-utils.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import { planProjection } from './plan-projection.js';
import type { PlannerContext } from './planner-context.js';
import { showColumns } from './show-columns.js';

/** The plan of a SHOW command and its result columns. */
export interface ShowPlan {
  readonly plan: LogicalOperator;
  readonly columns: readonly string[];
}

/** Names an expression declares for its own use (comprehension, reduce and pattern variables). */
function declaredVariables(node: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(node)) {
    for (const child of node) declaredVariables(child, into);
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if ((key === 'variable' || key === 'accumulator') && typeof value === 'object' && value !== null) {
        const v = value as { kind?: unknown; name?: unknown };
        if (v.kind === Kind.Variable && typeof v.name === 'string') into.add(v.name);
      }
      if (key !== 'loc') declaredVariables(value, into);
    }
  }
  return into;
}

/** Rejects a reference to a column the SHOW command does not provide at that point. */
function checkDefined(node: unknown, scope: readonly string[]): void {
  if (node === null || node === undefined) return;
  const declared = declaredVariables(node, new Set());
  for (const name of mentionedVariables(node)) {
    if (!scope.includes(name) && !declared.has(name)) {
      throw new CypherSyntaxError(`Variable \`${name}\` not defined`, { detail: 'UndefinedVariable' });
    }
  }
}

function item(field: string, alias: string | null): ProjectionItem {
  return { kind: Kind.ProjectionItem, expression: variable(field), alias: alias === null ? null : variable(alias), text: field };
}

function body(items: readonly ProjectionItem[], star: boolean, show: Show | null): ProjectionBody {
  return {
    kind: Kind.ProjectionBody,
    distinct: false,
    star,
    items,
    orderBy: show?.orderBy ?? null,
    skip: show?.skip ?? null,
    limit: show?.limit ?? null,
  };
}

/** The `YIELD` part: the yielded columns (or the default ones without YIELD) and the WHERE filter. */
function planYield(show: Show, all: readonly string[], defaults: readonly string[], leaf: LogicalOperator, ctx: PlannerContext): ShowPlan {
  if (show.yieldStar) {
    checkDefined(show.where, all);
    return planProjection(leaf, body([], true, show), show.where, all, ctx, false);
  }
  if (show.yieldItems !== null) {
    for (const y of show.yieldItems) {
      if (!all.includes(y.field)) {
        throw new CypherSyntaxError(`Variable \`${y.field}\` not defined (SHOW ${show.target} yields ${all.join(', ')})`, {
          detail: 'UndefinedVariable',
        });
      }
    }
    const items = show.yieldItems.map((y) => item(y.field, y.alias?.name ?? null));
    const names = items.map((i) => i.alias?.name ?? i.text);
    const duplicate = names.find((n, i) => names.indexOf(n) !== i);
    if (duplicate !== undefined) {
      throw new CypherSyntaxError(`Multiple result columns with the same name are not supported (\`${duplicate}\`)`, {
        detail: 'ColumnNameConflict',
      });
    }
    checkDefined(show.where, names);
    return planProjection(leaf, body(items, false, show), show.where, all, ctx, false);
  }
  checkDefined(show.where, all);
  return planProjection(
    leaf,
    body(
      defaults.map((c) => item(c, null)),
      false,
      null,
    ),
    show.where,
    all,
    ctx,
    false,
  );
}

/** Plans a SHOW command; targets the engine does not list keep a bare CommandCall (which reports them unsupported). */
export function planShow(show: Show, ctx: PlannerContext): ShowPlan {
  const columns = showColumns(show.target, show.filter);
  if (columns === null) {
    const names = show.yieldItems?.map((y) => y.alias?.name ?? y.field) ?? [];
    return { plan: { op: 'CommandCall', command: show, columns: names }, columns: names };
  }
  if (show.target === 'TRANSACTIONS' || show.target === 'SETTINGS' || show.target === 'TERMINATE TRANSACTIONS') checkDefined(show.name, []);
  const leaf: LogicalOperator = { op: 'CommandCall', command: show, columns: columns.all };
  const yielded = planYield(show, columns.all, columns.defaults, leaf, ctx);
  if (show.returnClause === null) {
    return { plan: { op: 'ProduceResults', input: yielded.plan, columns: yielded.columns }, columns: yielded.columns };
  }
  const projection = show.returnClause.projection;
  checkDefined(
    projection.items.map((i) => i.expression),
    yielded.columns,
  );
  const aliases = projection.items.flatMap((i) => (i.alias ? [i.alias.name] : [i.text]));
  checkDefined([projection.orderBy, projection.skip, projection.limit], [...yielded.columns, ...aliases]);
  const returned = planProjection(yielded.plan, show.returnClause.projection, null, yielded.columns, ctx, true);
  return { plan: { op: 'ProduceResults', input: returned.plan, columns: returned.columns }, columns: returned.columns };
}
