/**
 * Test helpers: a FunctionContext with a fixed clock and an in-memory entity accessor, and
 * `call(name, ...args)` through the registry.
 */
import { MemoryTracker } from '../../src/engine/cypher/memory/memory-tracker.js';
import { lookupFunction, type FunctionContext } from '../../src/engine/cypher/functions/index.js';
import { formatLiteral, type CypherMap, type CypherValue, type EntityAccessor } from '../../src/engine/values/index.js';

/** 2023-11-14T22:13:20.123Z */
export const FIXED_NOW = { epochSecond: 1_700_000_000, nano: 123_000_000 };

/** Nodes and relationships for the fake accessor. */
export interface FakeGraph {
  nodes: Map<bigint, { labels: string[]; props: CypherMap }>;
  rels: Map<bigint, { props: CypherMap }>;
}

/** An accessor over `graph`; ids missing from the maps read as deleted. */
export function fakeAccessor(graph: FakeGraph): EntityAccessor {
  return {
    nodeLabels: (id) => graph.nodes.get(id)?.labels ?? null,
    nodeProperties: (id) => graph.nodes.get(id)?.props ?? null,
    nodeProperty: (id, key) => graph.nodes.get(id)?.props.get(key),
    relationshipProperties: (id) => graph.rels.get(id)?.props ?? null,
    relationshipProperty: (id, key) => graph.rels.get(id)?.props.get(key),
    nodeElementId: (id) => `4:test:${id}`,
    relationshipElementId: (id) => `5:test:${id}`,
  };
}

/** A context with a fixed clock, UTC default zone and a constant `rand()`. */
export function testContext(graph: FakeGraph = { nodes: new Map(), rels: new Map() }, defaultTimeZone = 'UTC'): FunctionContext {
  return {
    accessor: fakeAccessor(graph),
    clock: () => FIXED_NOW,
    defaultTimeZone,
    random: () => 0.25,
    memory: new MemoryTracker(null, 256 * 1024 * 1024),
  };
}

/** Calls a scalar function by name. */
export function call(name: string, ...args: CypherValue[]): CypherValue {
  return callIn(testContext(), name, ...args);
}

/** Calls a scalar function by name with a given context. */
export function callIn(ctx: FunctionContext, name: string, ...args: CypherValue[]): CypherValue {
  const fn = lookupFunction(name);
  if (fn?.kind !== 'scalar') throw new Error(`no scalar function ${name}`);
  return fn.call(args, ctx);
}

/** Runs an aggregate over rows of arguments. */
export function aggregate(name: string, rows: CypherValue[][], distinct = false): CypherValue {
  const fn = lookupFunction(name);
  if (fn?.kind !== 'aggregate') throw new Error(`no aggregate ${name}`);
  const acc = fn.createAccumulator(distinct);
  const ctx = testContext();
  for (const row of rows) acc.add(row, ctx);
  return acc.result();
}

/** Cypher literal text of a value (temporals quoted), for compact assertions. */
export const show = (v: CypherValue): string => formatLiteral(v);

/** A map literal from an object. */
export const m = (o: Record<string, CypherValue>): CypherMap => new Map(Object.entries(o));
