import { Kind } from '../../ast/kinds.js';
import { isOpen, isList } from '../static-types.js';
import type { ValidationRule } from './rule.js';

/**
 * DELETE takes nodes, relationships or paths: `DELETE n:Label` is `InvalidDelete`, an
 * expression of another definite type (`DELETE 1 + 1`) is `InvalidArgumentType`.
 */
export const DeleteTargetRule: ValidationRule = (context) => ({
  enter(node) {
    if (node.kind !== Kind.Delete) return;
    for (const expression of node.expressions) {
      if (expression.kind === Kind.LabelPredicate) {
        context.report(expression, "DELETE doesn't support removing labels from a node. Try REMOVE.", 'InvalidDelete');
        continue;
      }
      const type = context.typeOf(expression);
      const deletable = isOpen(type) || type === 'Node' || type === 'Relationship' || type === 'Path' || isList(type);
      if (!deletable)
        context.report(expression, `Type mismatch: expected Node, Relationship or Path but was ${type}`, 'InvalidArgumentType');
    }
  },
});
