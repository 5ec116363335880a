import type { Expression, Variable } from '../../ast/expressions.js';
import { Kind } from '../../ast/kinds.js';
import type { ValidationContext } from '../context.js';
import { isOpen, typeToString } from '../static-types.js';
import type { ValidationRule } from './rule.js';

/**
 * SET and REMOVE targets of a definite wrong type (`InvalidArgumentType`): labels only on nodes,
 * properties and `v = map` / `v += map` only on nodes and relationships.
 */
export const UpdateTargetRule: ValidationRule = (context) => ({
  enter(node) {
    switch (node.kind) {
      case Kind.SetLabels:
      case Kind.RemoveLabels:
        expectEntity(context, node.variable, ['Node']);
        return;
      case Kind.SetVariable:
        expectEntity(context, node.variable, ['Node', 'Relationship']);
        return;
      case Kind.SetProperty:
      case Kind.RemoveProperty: {
        const target = node.target;
        if (target.kind === Kind.PropertyAccess || target.kind === Kind.Subscript)
          expectEntity(context, target.object, ['Node', 'Relationship']);
        return;
      }
      default:
        return;
    }
  },
});

function expectEntity(context: ValidationContext, expression: Expression | Variable, accepted: readonly string[]): void {
  const type = context.typeOf(expression);
  if (isOpen(type) || (typeof type === 'string' && accepted.includes(type))) return;
  context.report(expression, `Type mismatch: expected ${accepted.join(' or ')} but was ${typeToString(type)}`, 'InvalidArgumentType');
}
