/**
 * The built-in function library and the default registry the engine uses.
 * See `registry.ts` for the calling convention.
 */
import { apocFunctions } from '../procedures/apoc/index.js';
import { aggregateFunctions } from './aggregates.js';
import { conversionFunctions } from './conversion.js';
import { graphFunctions } from './graph.js';
import { listFunctions } from './list.js';
import { mathFunctions } from './math.js';
import { miscFunctions } from './misc.js';
import { FunctionRegistry, type AggregateFunction, type CypherFunction } from './registry.js';
import { spatialFunctions } from './spatial.js';
import { stringFunctions } from './string.js';
import { temporalFunctions } from './temporal.js';

export * from './registry.js';

/** Every built-in function. */
export const builtinFunctionList: readonly CypherFunction[] = [
  ...mathFunctions,
  ...stringFunctions,
  ...listFunctions,
  ...conversionFunctions,
  ...graphFunctions,
  ...temporalFunctions,
  ...spatialFunctions,
  ...miscFunctions,
  ...aggregateFunctions,
  ...apocFunctions,
];

/** A new registry holding the built-ins (extend it with `register`). */
export function createFunctionRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry();
  registry.registerAll(builtinFunctionList);
  return registry;
}

/** The process-wide default registry. */
export const builtinFunctions: FunctionRegistry = createFunctionRegistry();

/** The built-in function called `name` (case-insensitive, namespaced like `date.truncate`). */
export function lookupFunction(name: string): CypherFunction | undefined {
  return builtinFunctions.lookup(name);
}

/** True when `name` is an aggregating function. */
export function isAggregate(name: string): boolean {
  return builtinFunctions.lookup(name)?.kind === 'aggregate';
}

/** Narrowing helper. */
export function asAggregate(fn: CypherFunction | undefined): AggregateFunction | undefined {
  return fn?.kind === 'aggregate' ? fn : undefined;
}
