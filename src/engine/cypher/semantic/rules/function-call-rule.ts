import { Kind } from '../../ast/kinds.js';
import { didYouMean, suggestionList } from '../did-you-mean.js';
import { acceptsArgument, builtinFunctionList } from '../../functions/index.js';
import { isList, typeToString } from '../static-types.js';
import type { ValidationRule } from './rule.js';

/**
 * Function calls: the name must exist (`UnknownFunction`, with suggestions), the arity match
 * (`InvalidNumberOfArguments`), and arguments of a definite type be accepted
 * (`InvalidArgumentType`).
 */
export const FunctionCallRule: ValidationRule = (context) => ({
  enter(node) {
    if (node.kind !== Kind.FunctionCall) return;
    const name = [...node.namespace, node.name].join('.');
    const fn = context.lookupFunction(name);
    if (fn === undefined) {
      if (name.toLowerCase() === 'exists') {
        context.report(
          node,
          'The function exists() is no longer supported: use `x.prop IS NOT NULL` for properties and `EXISTS { pattern }` for patterns',
          'UnknownFunction',
        );
        return;
      }
      const hint = didYouMean(
        suggestionList(
          name,
          builtinFunctionList.map((f) => f.name),
        ),
      );
      context.report(node, `Unknown function '${name}'${hint ? `.${hint}` : ''}`, 'UnknownFunction');
      return;
    }
    if (node.args.length < fn.minArgs || node.args.length > fn.maxArgs) {
      const expected = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
      context.report(
        node,
        `Function '${fn.name}' takes ${expected} argument(s), got ${node.args.length}: ${fn.signature}`,
        'InvalidNumberOfArguments',
      );
      return;
    }
    node.args.forEach((arg, i) => {
      const actual = context.typeOf(arg);
      if (!acceptsArgument(fn, i, isList(actual) ? 'List' : actual)) {
        const accepted = fn.argumentTypes?.[Math.min(i, fn.argumentTypes.length - 1)] ?? [];
        context.report(arg, `Type mismatch: expected ${accepted.join(', ')} but was ${typeToString(actual)}`, 'InvalidArgumentType');
      }
    });
  },
});
