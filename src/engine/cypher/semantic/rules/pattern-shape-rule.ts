import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import type { LabelExpression, PatternPart } from '../../ast/patterns.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

/**
 * Pattern shapes Neo4j rejects before planning (`UnexpectedSyntax`):
 * - `shortestPath` / `allShortestPaths` take exactly one relationship, with a minimal length of
 *   0 or 1, and only in MATCH or expressions;
 * - CREATE and MERGE write plain label conjunctions (`:A:B` / `:A&B`), never `|`, `!` or `%`,
 *   and no quantified paths.
 */
export const PatternShapeRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind === Kind.ShortestPath) {
      checkShortestPath(context, node, ancestors);
      return;
    }
    if (node.kind === Kind.Create) for (const part of node.pattern.parts) checkWritten(context, part, 'CREATE');
    else if (node.kind === Kind.Merge) checkWritten(context, node.pattern, 'MERGE');
  },
});

function checkShortestPath(
  context: ValidationContext,
  node: Extract<AstNode, { kind: Kind.ShortestPath }>,
  ancestors: readonly AstNode[],
): void {
  const name = node.all ? 'allShortestPaths' : 'shortestPath';
  const writer = ancestors.find((a) => a.kind === Kind.Create || a.kind === Kind.Merge);
  if (writer) {
    context.report(node, `${name}(...) cannot be used to ${writer.kind === Kind.Create ? 'CREATE' : 'MERGE'}`, 'UnexpectedSyntax');
    return;
  }
  const relationships = node.pattern.elements.filter((e) => e.kind !== Kind.NodePattern);
  const only = relationships[0];
  if (relationships.length !== 1 || only?.kind !== Kind.RelationshipPattern) {
    context.report(node, `${name}(...) requires a pattern containing a single relationship`, 'UnexpectedSyntax');
  } else if (only.length?.min !== undefined && only.length.min !== null && only.length.min > 1n) {
    context.report(node, `${name}(...) does not support a minimal length different from 0 or 1`, 'UnexpectedSyntax');
  }
}

function checkWritten(context: ValidationContext, part: PatternPart, clause: string): void {
  if (part.element.kind !== Kind.PathPattern) return;
  for (const element of part.element.elements) {
    if (element.kind === Kind.QuantifiedPath) {
      context.report(element, `Quantified path patterns are not allowed in ${clause}`, 'UnexpectedSyntax');
    } else if (element.kind === Kind.NodePattern && element.labels && !isConjunction(element.labels)) {
      context.report(element.labels, `Label expressions in ${clause} must be conjunctions of labels (:A:B or :A&B)`, 'UnexpectedSyntax');
    }
  }
}

function isConjunction(labels: LabelExpression): boolean {
  if (labels.kind === Kind.LabelName) return true;
  if (labels.kind === Kind.DynamicLabel) return labels.quantifier !== 'any';
  return labels.kind === Kind.LabelAnd && isConjunction(labels.left) && isConjunction(labels.right);
}
