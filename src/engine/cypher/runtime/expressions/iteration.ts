/**
 * List comprehensions, list predicates (all/any/none/single) and reduce: each binds a
 * variable per list element in a row derived from the current one.
 */
import { CypherTypeError } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import type { CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { Expression, ListComprehension, ListPredicate, Reduce } from '../../ast/index.js';
import type { CompileEnv, Evaluator } from './evaluator.js';
import { asBoolean } from './logic.js';
import { extendRow, extendRow2 } from '../row.js';

function asList(v: CypherValue): readonly CypherValue[] | null {
  if (v === null) return null;
  if (!Array.isArray(v))
    throw new CypherTypeError(`Type mismatch: expected List but was ${typeName(v)}`, { detail: 'InvalidArgumentType' });
  return v as readonly CypherValue[];
}

/**
 * The loops below check the transaction timeout and termination every CHECK_MASK + 1 items: an
 * expression over a huge list cannot yield the event loop, but it stops at the deadline.
 */
const CHECK_MASK = 1023;

/** Compiles the three iterating expression forms; `compileExpression` compiles their parts. */
export function compileIteration(
  expr: ListComprehension | ListPredicate | Reduce,
  env: CompileEnv,
  compileExpression: (expr: Expression, env: CompileEnv) => Evaluator,
): Evaluator {
  const variable = expr.variable.name;
  const inner: CompileEnv = { ...env, scope: [...env.scope, variable] };
  const source = compileExpression(expr.source, env);
  if (expr.kind === Kind.Reduce) {
    const acc = expr.accumulator.name;
    const init = compileExpression(expr.init, env);
    const step = compileExpression(expr.expression, { ...inner, scope: [...inner.scope, acc] });
    return (row, ctx) => {
      const list = asList(source(row, ctx));
      if (list === null) return null;
      let value = init(row, ctx);
      let n = 0;
      for (const item of list) {
        if ((++n & CHECK_MASK) === 0) ctx.scheduler.checkAlive();
        value = step(extendRow2(row, acc, value, variable, item), ctx);
      }
      return value;
    };
  }
  const where = expr.where ? compileExpression(expr.where, inner) : null;
  if (expr.kind === Kind.ListComprehension) {
    const projection = expr.projection ? compileExpression(expr.projection, inner) : null;
    return (row, ctx) => {
      const list = asList(source(row, ctx));
      if (list === null) return null;
      const out: CypherValue[] = [];
      let n = 0;
      for (const item of list) {
        if ((++n & CHECK_MASK) === 0) ctx.scheduler.checkAlive();
        const scoped = extendRow(row, variable, item);
        if (where && asBoolean(where(scoped, ctx), 'WHERE') !== true) continue;
        out.push(projection ? projection(scoped, ctx) : item);
      }
      return out;
    };
  }
  const quantifier = expr.quantifier;
  return (row, ctx) => {
    const list = asList(source(row, ctx));
    if (list === null) return null;
    let trues = 0;
    let nulls = 0;
    let n = 0;
    for (const item of list) {
      if ((++n & CHECK_MASK) === 0) ctx.scheduler.checkAlive();
      const result = where ? asBoolean(where(extendRow(row, variable, item), ctx), quantifier) : true;
      if (result === true) trues++;
      else if (result === null) nulls++;
    }
    const falses = list.length - trues - nulls;
    switch (quantifier) {
      case 'all':
        return falses > 0 ? false : nulls > 0 ? null : true;
      case 'any':
        return trues > 0 ? true : nulls > 0 ? null : false;
      case 'none':
        return trues > 0 ? false : nulls > 0 ? null : true;
      case 'single':
        return trues > 1 ? false : nulls > 0 ? null : trues === 1;
    }
  };
}
