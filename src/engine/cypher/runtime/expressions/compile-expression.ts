/**
 * Compiles AST expressions into evaluators. Dispatch happens once per expression node; the
 * returned closures do only the per-row work.
 */
import { CypherTypeError, ParameterMissing } from '../../../errors/index.js';
import * as V from '../../../values/index.js';
import { RelationshipRef } from '../../../values/types.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { BinaryOperation, Expression, MapProjection } from '../../ast/index.js';
import { isSignal } from '../row.js';
import { labelsOf, property, propertiesOf, slice, subscript } from './access.js';
import type { CompileEnv, Evaluator } from './evaluator.js';
import { compileIteration } from './iteration.js';
import { labelsMatch } from './label-expression.js';
import { compileDynamicResolver } from './dynamic-labels.js';
import { and, asBoolean, inList, not, or, regexMatch, relational, stringPredicate, xor } from './logic.js';
import { matchesType } from './type-predicate.js';

/** Compiles one expression. */
export function compileExpression(expr: Expression, env: CompileEnv): Evaluator {
  switch (expr.kind) {
    case Kind.IntegerLiteral:
    case Kind.FloatLiteral:
    case Kind.StringLiteral:
    case Kind.BooleanLiteral: {
      const value = expr.value;
      return () => value;
    }
    case Kind.NullLiteral:
      return () => null;
    case Kind.ListLiteral: {
      const items = expr.items.map((item) => compileExpression(item, env));
      return (row, ctx) => items.map((item) => item(row, ctx));
    }
    case Kind.MapLiteral: {
      const entries = expr.entries.map((e) => [e.key, compileExpression(e.value, env)] as const);
      return (row, ctx) => new Map(entries.map(([k, ev]) => [k, ev(row, ctx)]));
    }
    case Kind.Parameter: {
      const name = expr.name;
      return (_row, ctx) => {
        const value = ctx.parameters.get(name);
        if (value === undefined) throw new ParameterMissing(name);
        return value;
      };
    }
    case Kind.Variable: {
      const name = expr.name;
      return (row) => row[name] ?? null;
    }
    case Kind.PropertyAccess: {
      const object = compileExpression(expr.object, env);
      const key = expr.property;
      return (row, ctx) => property(object(row, ctx), key, ctx);
    }
    case Kind.Subscript: {
      const object = compileExpression(expr.object, env);
      const index = compileExpression(expr.index, env);
      return (row, ctx) => subscript(object(row, ctx), index(row, ctx), ctx);
    }
    case Kind.Slice: {
      const object = compileExpression(expr.object, env);
      const from = expr.from ? compileExpression(expr.from, env) : null;
      const to = expr.to ? compileExpression(expr.to, env) : null;
      return (row, ctx) => slice(object(row, ctx), from?.(row, ctx), to?.(row, ctx));
    }
    case Kind.FunctionCall: {
      const fn = env.resolveFunction([...expr.namespace, expr.name].join('.').toLowerCase());
      const args = expr.args.map((a) => compileExpression(a, env));
      return (row, ctx) =>
        fn.call(
          args.map((a) => a(row, ctx)),
          ctx,
        );
    }
    case Kind.CountStar:
      throw new CypherTypeError('count(*) is only allowed in a projection', { detail: 'InvalidAggregation' });
    case Kind.BinaryOperation:
      return compileBinary(expr, env);
    case Kind.UnaryOperation: {
      const operand = compileExpression(expr.operand, env);
      if (expr.operator === 'NOT') return (row, ctx) => not(asBoolean(operand(row, ctx), 'NOT'));
      if (expr.operator === '-') return (row, ctx) => V.negate(operand(row, ctx));
      return (row, ctx) => V.unaryPlus(operand(row, ctx));
    }
    case Kind.IsNull: {
      const operand = compileExpression(expr.operand, env);
      const negated = expr.negated;
      return (row, ctx) => (operand(row, ctx) === null) !== negated;
    }
    case Kind.TypePredicate: {
      const operand = compileExpression(expr.operand, env);
      const type = expr.type;
      const negated = expr.negated;
      return (row, ctx) => matchesType(operand(row, ctx), type) !== negated;
    }
    case Kind.LabelPredicate: {
      const operand = compileExpression(expr.operand, env);
      const labels = expr.labels;
      const dynamic = compileDynamicResolver(labels, (label) => compileExpression(label.expression, env), 'label');
      return (row, ctx) => {
        const value = operand(row, ctx);
        if (value === null) return null;
        const resolve = dynamic?.(row, ctx);
        if (value instanceof RelationshipRef || value instanceof V.Relationship) return labelsMatch(labels, [value.type], resolve);
        const nodeLabels = labelsOf(value, ctx);
        if (nodeLabels === null) {
          throw new CypherTypeError(`Type mismatch: expected Node but was ${V.typeName(value)}`, { detail: 'InvalidArgumentType' });
        }
        return labelsMatch(labels, nodeLabels, resolve);
      };
    }
    case Kind.Case:
      return compileCase(expr, env);
    case Kind.ListComprehension:
    case Kind.ListPredicate:
    case Kind.Reduce:
      return compileIteration(expr, env, compileExpression);
    case Kind.MapProjection:
      return compileMapProjection(expr, env);
    case Kind.PatternExpression: {
      const plan = env.planPattern(expr.pattern, null, env.scope, null);
      return (row, ctx) => {
        for (const out of plan(row, ctx)) if (!isSignal(out)) return true;
        return false;
      };
    }
    case Kind.PatternComprehension: {
      const pathName = expr.variable?.name ?? null;
      const plan = env.planPattern(expr.pattern, expr.where, env.scope, pathName);
      const projection = compileExpression(expr.projection, { ...env, scope: [...env.scope, ...patternVariables(expr)] });
      return (row, ctx) => {
        const out: CypherValue[] = [];
        for (const inner of plan(row, ctx)) if (!isSignal(inner)) out.push(projection(inner, ctx));
        return out;
      };
    }
    case Kind.ShortestPath: {
      const pathName = '  shortest';
      const plan = env.planPattern(expr, null, env.scope, pathName);
      return (row, ctx) => {
        for (const inner of plan(row, ctx)) if (!isSignal(inner)) return inner[pathName] ?? null;
        return null;
      };
    }
    case Kind.ExistsSubquery: {
      const { plan } = env.planSubquery(expr.body, env.scope);
      return (row, ctx) => {
        for (const inner of plan(row, ctx)) if (!isSignal(inner)) return true;
        return false;
      };
    }
    case Kind.CountSubquery: {
      const { plan } = env.planSubquery(expr.body, env.scope);
      return (row, ctx) => {
        let n = 0n;
        for (const inner of plan(row, ctx)) if (!isSignal(inner)) n++;
        return n;
      };
    }
    case Kind.CollectSubquery: {
      const { plan, columns } = env.planSubquery(expr.body, env.scope);
      const column = columns[0] ?? '';
      return (row, ctx) => {
        const out: CypherValue[] = [];
        for (const inner of plan(row, ctx)) if (!isSignal(inner)) out.push(inner[column] ?? null);
        return out;
      };
    }
  }
}

function patternVariables(expr: {
  readonly pattern: { readonly elements: readonly { readonly variable?: { readonly name: string } | null }[] };
}): string[] {
  return expr.pattern.elements.flatMap((e) => (e.variable ? [e.variable.name] : []));
}

function compileBinary(expr: BinaryOperation, env: CompileEnv): Evaluator {
  const left = compileExpression(expr.left, env);
  const right = compileExpression(expr.right, env);
  switch (expr.operator) {
    case 'AND':
      return (row, ctx) => and(asBoolean(left(row, ctx), 'AND'), asBoolean(right(row, ctx), 'AND'));
    case 'OR':
      return (row, ctx) => or(asBoolean(left(row, ctx), 'OR'), asBoolean(right(row, ctx), 'OR'));
    case 'XOR':
      return (row, ctx) => xor(asBoolean(left(row, ctx), 'XOR'), asBoolean(right(row, ctx), 'XOR'));
    case '=':
      return (row, ctx) => V.equals(left(row, ctx), right(row, ctx));
    case '<>':
      return (row, ctx) => not(V.equals(left(row, ctx), right(row, ctx)));
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const op = expr.operator;
      return (row, ctx) => relational(op, left(row, ctx), right(row, ctx));
    }
    case '=~':
      return (row, ctx) => regexMatch(left(row, ctx), right(row, ctx));
    case 'STARTS WITH':
    case 'ENDS WITH':
    case 'CONTAINS': {
      const op = expr.operator;
      return (row, ctx) => stringPredicate(op, left(row, ctx), right(row, ctx));
    }
    case 'IN':
      return (row, ctx) => inList(left(row, ctx), right(row, ctx));
    case '+':
      return (row, ctx) => V.add(left(row, ctx), right(row, ctx));
    case '||':
      return (row, ctx) => V.add(left(row, ctx), right(row, ctx));
    case '-':
      return (row, ctx) => V.subtract(left(row, ctx), right(row, ctx));
    case '*':
      return (row, ctx) => V.multiply(left(row, ctx), right(row, ctx));
    case '/':
      return (row, ctx) => V.divide(left(row, ctx), right(row, ctx));
    case '%':
      return (row, ctx) => V.modulo(left(row, ctx), right(row, ctx));
    case '^':
      return (row, ctx) => V.power(left(row, ctx), right(row, ctx));
  }
}

function compileCase(expr: Extract<Expression, { kind: Kind.Case }>, env: CompileEnv): Evaluator {
  const subject = expr.subject ? compileExpression(expr.subject, env) : null;
  const alternatives = expr.alternatives.map((a) => ({
    when: compileExpression(a.when, env),
    then: compileExpression(a.then, env),
  }));
  const otherwise = expr.otherwise ? compileExpression(expr.otherwise, env) : () => null;
  if (subject) {
    return (row, ctx) => {
      const value = subject(row, ctx);
      for (const alt of alternatives) if (V.equals(value, alt.when(row, ctx)) === true) return alt.then(row, ctx);
      return otherwise(row, ctx);
    };
  }
  return (row, ctx) => {
    for (const alt of alternatives) if (alt.when(row, ctx) === true) return alt.then(row, ctx);
    return otherwise(row, ctx);
  };
}

function compileMapProjection(expr: MapProjection, env: CompileEnv): Evaluator {
  const name = expr.variable.name;
  const parts = expr.selectors.map((s) => {
    switch (s.kind) {
      case Kind.PropertySelector:
        return { kind: 'prop' as const, key: s.property };
      case Kind.AllPropertiesSelector:
        return { kind: 'all' as const };
      case Kind.VariableSelector: {
        const v = s.variable.name;
        const value: Evaluator = (row) => row[v] ?? null;
        return { kind: 'value' as const, key: v, value };
      }
      case Kind.LiteralEntrySelector:
        return { kind: 'value' as const, key: s.key, value: compileExpression(s.value, env) };
    }
  });
  return (row, ctx) => {
    const subject = row[name] ?? null;
    if (subject === null) return null;
    const out = new Map<string, CypherValue>();
    for (const part of parts) {
      if (part.kind === 'prop') out.set(part.key, property(subject, part.key, ctx));
      else if (part.kind === 'all') {
        const props = propertiesOf(subject, ctx);
        if (props === null) throw new CypherTypeError(`Type mismatch: expected a map but was ${V.typeName(subject)}`);
        for (const [k, v] of props) out.set(k, v);
      } else out.set(part.key, part.value(row, ctx));
    }
    return out;
  };
}
