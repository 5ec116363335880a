import type { Clause } from '../../ast/clauses.js';
import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

const updatingKinds = new Set<Kind>([Kind.Create, Kind.Merge, Kind.Set, Kind.Remove, Kind.Delete, Kind.Foreach]);
const subqueryExpressionKinds = new Set<Kind>([Kind.ExistsSubquery, Kind.CountSubquery, Kind.CollectSubquery]);
const closingKinds = new Set<Kind>([...updatingKinds, Kind.Return, Kind.Finish, Kind.CallSubquery, Kind.CallProcedure]);

/**
 * Clause order (`InvalidClauseComposition`): RETURN and FINISH only last, USE only first (and
 * `USE ... AT` only at the start of the whole query); a
 * query (or CALL subquery) ends with RETURN, FINISH, an update or a call; CALL IN TRANSACTIONS
 * only at the top level; EXISTS / COUNT / COLLECT bodies are read-only and
 * COLLECT ends with RETURN; FOREACH holds only updates; UNION and UNION ALL are not mixed.
 */
export const ClauseCompositionRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind === Kind.Union) {
      if (node.left.kind === Kind.Union && node.left.all !== node.all) {
        context.report(node, 'Invalid combination of UNION and UNION ALL', 'InvalidClauseComposition');
      }
      return;
    }
    if (node.kind === Kind.Foreach) {
      for (const clause of node.clauses) {
        if (!updatingKinds.has(clause.kind)) report(context, clause, `Invalid use of ${describe(clause)} inside FOREACH`);
      }
      return;
    }
    if (node.kind !== Kind.SingleQuery) return;
    const container = nearestContainer(ancestors);
    node.clauses.forEach((clause, index) => {
      if (clause.kind === Kind.Return && index < node.clauses.length - 1)
        report(context, clause, 'RETURN can only be used at the end of the query');
      if (clause.kind === Kind.Finish && index < node.clauses.length - 1)
        report(context, clause, 'FINISH can only be used at the end of the query');
      const afterImport = index === 1 && container !== null && node.clauses[0]!.kind === Kind.With;
      if (clause.kind === Kind.Use && index > 0 && !afterImport)
        report(context, clause, 'USE clause must be the first clause in a (sub-)query');
      if (clause.kind === Kind.Use && clause.at !== undefined && (container !== null || ancestors.some((a) => a.kind === Kind.Union))) {
        report(
          context,
          clause,
          `USE ... AT ${clause.at.kind} is only allowed at the start of a whole query, not in a subquery or a UNION part`,
        );
      }
      if (
        clause.kind === Kind.CallSubquery &&
        clause.inTransactions &&
        ancestors.some((a) => a.kind === Kind.CallSubquery || subqueryExpressionKinds.has(a.kind) || a.kind === Kind.Foreach)
      ) {
        report(
          context,
          clause,
          'CALL { ... } IN TRANSACTIONS is only supported at the top level of a query, not nested in another subquery',
        );
      }
      if (container !== null && subqueryExpressionKinds.has(container.kind) && updatingKinds.has(clause.kind)) {
        report(
          context,
          clause,
          `An ${container.kind === Kind.ExistsSubquery ? 'Exists' : container.kind === Kind.CountSubquery ? 'Count' : 'Collect'} Expression cannot contain any updates`,
        );
      }
    });
    const last = node.clauses[node.clauses.length - 1];
    if (last === undefined) return;
    if (container !== null && container.kind === Kind.CollectSubquery) {
      if (last.kind !== Kind.Return) report(context, last, 'A Collect Expression must end with a single return column');
    } else if (container === null || container.kind === Kind.CallSubquery) {
      if (!closingKinds.has(last.kind)) {
        report(
          context,
          last,
          `Query cannot conclude with ${describe(last)} (must be a RETURN clause, a FINISH clause, an update clause, a unit subquery call, or a procedure call with no YIELD)`,
        );
      }
    }
  },
});

/** The nearest enclosing subquery expression or CALL subquery, or null at the top level. */
function nearestContainer(ancestors: readonly AstNode[]): AstNode | null {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const ancestor = ancestors[i]!;
    if (subqueryExpressionKinds.has(ancestor.kind) || ancestor.kind === Kind.CallSubquery) return ancestor;
  }
  return null;
}

function describe(clause: Clause): string {
  switch (clause.kind) {
    case Kind.Match:
      return clause.optional ? 'OPTIONAL MATCH' : 'MATCH';
    case Kind.LoadCsv:
      return 'LOAD CSV';
    case Kind.CallSubquery:
    case Kind.CallProcedure:
      return 'CALL';
    default:
      return clause.kind.toUpperCase();
  }
}

function report(context: ValidationContext, clause: Clause, message: string): void {
  context.report(clause, message, 'InvalidClauseComposition');
}
