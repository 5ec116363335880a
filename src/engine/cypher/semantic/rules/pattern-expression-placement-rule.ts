import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import type { ValidationRule } from './rule.js';

/** Nodes whose `where` field is a predicate position. */
const predicateHolders = new Set<Kind>([
  Kind.Match,
  Kind.With,
  Kind.NodePattern,
  Kind.RelationshipPattern,
  Kind.QuantifiedPath,
  Kind.ListComprehension,
  Kind.PatternComprehension,
  Kind.ListPredicate,
  Kind.SubqueryPattern,
  Kind.CallProcedure,
  Kind.Show,
]);

/**
 * A bare pattern `(a)-->(b)` is only a predicate in Neo4j 5: it may appear in a WHERE, possibly
 * under AND / OR / XOR / NOT, but not as a value (`RETURN (n)-->()`, `size((a)-->())`):
 * `UnexpectedSyntax`.
 */
export const PatternExpressionPlacementRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind !== Kind.PatternExpression) return;
    let child: AstNode = node;
    for (let i = ancestors.length - 1; i >= 0; i--) {
      const parent = ancestors[i]!;
      const connective =
        (parent.kind === Kind.BinaryOperation && (parent.operator === 'AND' || parent.operator === 'OR' || parent.operator === 'XOR')) ||
        (parent.kind === Kind.UnaryOperation && parent.operator === 'NOT');
      if (connective) {
        child = parent;
        continue;
      }
      if (predicateHolders.has(parent.kind) && (parent as { where?: unknown }).where === child) return;
      break;
    }
    context.report(
      node,
      'A pattern expression should only be used in order to test the existence of a pattern. It can no longer be used inside a function or as a value; use a COUNT { } or COLLECT { } subquery or a pattern comprehension instead.',
      'UnexpectedSyntax',
    );
  },
});
