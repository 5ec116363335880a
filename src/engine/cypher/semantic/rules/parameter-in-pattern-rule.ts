import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import type { ValidationRule } from './rule.js';

/**
 * `MATCH (n $param)` / `MERGE (n $param)`: a parameter cannot stand for a pattern's property map
 * when matching (`InvalidParameterUse`); CREATE accepts it.
 */
export const ParameterInPatternRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind !== Kind.NodePattern && node.kind !== Kind.RelationshipPattern) return;
    if (node.properties?.kind !== Kind.Parameter) return;
    const clause = [...ancestors].reverse().find((a: AstNode) => a.kind === Kind.Match || a.kind === Kind.Merge || a.kind === Kind.Create);
    if (clause === undefined || clause.kind === Kind.Create) return;
    context.report(
      node.properties,
      'Parameter maps cannot be used in MATCH or MERGE patterns (use a literal map instead, e.g. {id: $param.id})',
      'InvalidParameterUse',
    );
  },
});
