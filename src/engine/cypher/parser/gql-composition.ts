/**
 * Cypher 25 / GQL query composition, built from the existing clauses so the analyzer and planner
 * need nothing new:
 * - `A NEXT B`: A's final `RETURN items` becomes `WITH items` (marked `form: 'NEXT'`, printed
 *   back as `RETURN items NEXT`), so B continues with exactly the rows and columns A returned.
 *   When A is a UNION it runs as `CALL { A }` before B.
 * - `WHEN c1 THEN Q1 [WHEN c2 THEN Q2 ...] [ELSE Qn]`: the first branch whose condition is true
 *   runs. Branch i becomes `FILTER coalesce(ci, false) AND NOT coalesce(c1, false) AND ... Qi`
 *   and the branches are joined with UNION ALL (so every branch must return the same columns).
 */
import { CypherSyntaxError } from '../../errors/index.js';
import type { CallSubquery, Clause, ProjectionBody, With } from '../ast/clauses.js';
import type { Expression } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Query, SingleQuery } from '../ast/statements.js';

/** `first NEXT rest` as one query. */
export function nextQuery(first: Query, rest: Query): SingleQuery {
  if (rest.kind !== Kind.SingleQuery)
    throw new CypherSyntaxError('A query after NEXT cannot be a UNION; wrap it in CALL { ... }', { detail: 'InvalidSyntax' });
  let lead: Clause[];
  if (first.kind === Kind.SingleQuery) {
    const last = first.clauses[first.clauses.length - 1]!;
    if (last.kind !== Kind.Return) throw new CypherSyntaxError('The query before NEXT must end with RETURN', { detail: 'InvalidSyntax' });
    const carried: With = {
      kind: Kind.With,
      projection: last.projection,
      where: null,
      form: 'NEXT',
      ...(last.loc ? { loc: last.loc } : {}),
    };
    lead = [...first.clauses.slice(0, -1), carried];
  } else {
    const call: CallSubquery = {
      kind: Kind.CallSubquery,
      optional: false,
      scope: null,
      query: first,
      inTransactions: null,
      ...(first.loc ? { loc: first.loc } : {}),
    };
    lead = [call];
  }
  return { kind: Kind.SingleQuery, clauses: [...lead, ...rest.clauses], ...(first.loc ? { loc: first.loc } : {}) };
}

function isTrue(condition: Expression): Expression {
  return {
    kind: Kind.FunctionCall,
    namespace: [],
    name: 'coalesce',
    distinct: false,
    args: [condition, { kind: Kind.BooleanLiteral, value: false }],
  };
}

/** One `WHEN condition THEN query` (condition null for ELSE). */
export interface ConditionalBranch {
  readonly condition: Expression | null;
  readonly query: Query;
}

/** The conditional query as a UNION ALL of guarded branches. */
export function conditionalQuery(branches: readonly ConditionalBranch[]): Query {
  const earlier: Expression[] = [];
  let union: Query | null = null;
  for (const branch of branches) {
    if (branch.query.kind !== Kind.SingleQuery) {
      throw new CypherSyntaxError('A WHEN or ELSE branch cannot be a UNION; wrap it in CALL { ... }', { detail: 'InvalidSyntax' });
    }
    let guard: Expression | null = branch.condition === null ? null : isTrue(branch.condition);
    for (const previous of earlier) {
      const not: Expression = { kind: Kind.UnaryOperation, operator: 'NOT', operand: previous };
      guard = guard === null ? not : { kind: Kind.BinaryOperation, operator: 'AND', left: guard, right: not };
    }
    if (branch.condition !== null) earlier.push(isTrue(branch.condition));
    const projection: ProjectionBody = {
      kind: Kind.ProjectionBody,
      distinct: false,
      star: true,
      items: [],
      orderBy: null,
      skip: null,
      limit: null,
    };
    const clauses: Clause[] =
      guard === null ? [...branch.query.clauses] : [{ kind: Kind.With, projection, where: guard, form: 'FILTER' }, ...branch.query.clauses];
    const single: SingleQuery = { kind: Kind.SingleQuery, clauses };
    union = union === null ? single : { kind: Kind.Union, all: true, left: union, right: single };
  }
  return union!;
}
