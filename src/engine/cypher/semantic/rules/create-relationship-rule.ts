import { Kind } from '../../ast/kinds.js';
import type { PathPattern } from '../../ast/patterns.js';
import type { ValidationContext } from '../context.js';
import type { ValidationRule } from './rule.js';

/**
 * Relationships written by CREATE and MERGE need exactly one type (`NoSingleRelationshipType`),
 * a fixed length (`CreatingVarLength`) and, for CREATE, a direction
 * (`RequiresDirectedRelationship`).
 */
export const CreateRelationshipRule: ValidationRule = (context) => ({
  enter(node) {
    if (node.kind === Kind.Create) for (const part of node.pattern.parts) checkPath(context, part.element, true);
    else if (node.kind === Kind.Merge) checkPath(context, node.pattern.element, false);
  },
});

function checkPath(
  context: ValidationContext,
  element: PathPattern | { kind: Kind.ShortestPath; pattern: PathPattern },
  create: boolean,
): void {
  const path = element.kind === Kind.ShortestPath ? element.pattern : element;
  for (const rel of path.elements) {
    if (rel.kind !== Kind.RelationshipPattern) continue;
    const single = rel.types?.kind === Kind.LabelName || (rel.types?.kind === Kind.DynamicLabel && rel.types.quantifier !== 'any');
    if (!single) {
      context.report(
        rel,
        `Exactly one relationship type must be specified for ${create ? 'CREATE' : 'MERGE'}. Did you forget to prefix your relationship type with a ':'?`,
        'NoSingleRelationshipType',
      );
    } else if (rel.length !== null) {
      context.report(rel, `Variable length relationships cannot be used in ${create ? 'CREATE' : 'MERGE'}`, 'CreatingVarLength');
    } else if (create && rel.direction === 'BOTH') {
      context.report(rel, `Only directed relationships are supported in CREATE`, 'RequiresDirectedRelationship');
    }
  }
}
