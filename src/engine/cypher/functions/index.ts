/**
 * The built-in function library and the default registry the engine uses.
 * See `registry.ts` for the calling convention.
 */
import { aggregateFunctions } from './aggregates.js';
import { conversionFunctions } from './conversion.js';
import { genaiFunctions } from './genai.js';
import { graphFunctions } from './graph.js';
import { listFunctions } from './list.js';
import { mathFunctions } from './math.js';
import { miscFunctions } from './misc.js';
import { FunctionRegistry, type AggregateFunction, type CypherFunction } from './registry.js';
import { spatialFunctions } from './spatial.js';
import { stringFunctions } from './string.js';
import { temporalFunctions } from './temporal.js';
import { vectorFunctions } from './vector.js';

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
  ...vectorFunctions,
  ...genaiFunctions,
  ...aggregateFunctions,
];

/**
 * The process-wide default registry: the built-ins, plus the libraries that register themselves
 * when they load (APOC, see procedures/apoc/index.ts).
 */
export const builtinFunctions: FunctionRegistry = new FunctionRegistry();
builtinFunctions.registerAll(builtinFunctionList);

/** A new registry holding everything the default registry holds now (extend it with `register`). */
export function createFunctionRegistry(): FunctionRegistry {
  const registry = new FunctionRegistry();
  registry.registerAll(builtinFunctions.list());
  return registry;
}

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
