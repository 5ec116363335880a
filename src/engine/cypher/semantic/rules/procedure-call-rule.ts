import { ParameterMissing, ProcedureNotFound } from '../../../errors/index.js';
import type { CallProcedure } from '../../ast/clauses.js';
import { Kind } from '../../ast/kinds.js';
import type { AstNode } from '../../ast/nodes.js';
import { positionOf, type ProcedureSignature, type ValidationContext } from '../context.js';
import { mayBeOneOf, typeFromSignature, typeToString } from '../static-types.js';
import type { ValidationRule } from './rule.js';

/**
 * Procedure calls, when a procedure lookup is configured: the procedure must exist
 * (`ProcedureNotFound`), explicit arguments match in number (`InvalidNumberOfArguments`) and
 * type (`InvalidArgumentType`); implicit arguments are only for standalone calls
 * (`InvalidArgumentPassingMode`) and must be supplied as parameters (`MissingParameter`);
 * `YIELD *` only in standalone calls (`UnexpectedSyntax`).
 */
export const ProcedureCallRule: ValidationRule = (context) => ({
  enter(node, ancestors) {
    if (node.kind !== Kind.CallProcedure || context.options.procedures === undefined) return;
    const name = [...node.namespace, node.name].join('.');
    const signature = context.options.procedures(name);
    if (signature === undefined) {
      context.reportError(new ProcedureNotFound(name, { detail: 'ProcedureNotFound', position: positionOf(node) }));
      return;
    }
    const standalone = isStandalone(ancestors);
    if (node.yieldStar && !standalone) {
      context.report(
        node,
        'Procedure call inside a query does not support passing arguments implicitly or YIELD * (use explicit YIELD columns)',
        'UnexpectedSyntax',
      );
    }
    if (node.args === null) checkImplicit(context, node, signature, standalone);
    else checkExplicit(context, node, signature);
  },
});

function isStandalone(ancestors: readonly AstNode[]): boolean {
  const query = ancestors[ancestors.length - 1];
  const parent = ancestors[ancestors.length - 2];
  return query?.kind === Kind.SingleQuery && query.clauses.length === 1 && parent?.kind === Kind.Statement;
}

function checkImplicit(context: ValidationContext, node: CallProcedure, signature: ProcedureSignature, standalone: boolean): void {
  if (signature.inputs.length === 0) return;
  if (!standalone) {
    context.report(
      node,
      `Procedure call inside a query does not support passing arguments implicitly. Pass arguments explicitly in parentheses after procedure name for ${signature.name}`,
      'InvalidArgumentPassingMode',
    );
    return;
  }
  const supplied = context.options.parameterNames;
  if (supplied === undefined) return;
  const missing = signature.inputs.filter((input) => input.default === undefined && !supplied.has(input.name)).map((input) => input.name);
  if (missing.length > 0) context.reportError(new ParameterMissing(missing.join(', '), { position: positionOf(node) }));
}

function checkExplicit(context: ValidationContext, node: CallProcedure, signature: ProcedureSignature): void {
  const args = node.args ?? [];
  const required = signature.inputs.filter((input) => input.default === undefined).length;
  if (args.length < required || args.length > signature.inputs.length) {
    const expected = required === signature.inputs.length ? `${required}` : `${required} to ${signature.inputs.length}`;
    context.report(
      node,
      `Procedure call does not provide the required number of arguments: got ${args.length} argument(s), expected ${expected} for ${signature.name}`,
      'InvalidNumberOfArguments',
    );
    return;
  }
  args.forEach((arg, i) => {
    const expected = typeFromSignature(signature.inputs[i]!.type);
    const accepted = expected === 'Float' ? ['Float', 'Integer'] : typeof expected === 'object' ? ['List'] : [expected];
    const actual = context.typeOf(arg);
    if (!mayBeOneOf(actual, accepted)) {
      context.report(arg, `Type mismatch: expected ${typeToString(expected)} but was ${typeToString(actual)}`, 'InvalidArgumentType');
    }
  });
}
