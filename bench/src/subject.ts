/**
 * What every system under test can do on the social graph. Each adapter (graphdb embedded, graphdb
 * over Bolt, Kuzu, raw SQLite, the JS CSR limit) implements the operations it can run; a workload
 * runs every adapter that has its operation and compares their answers on a sample.
 */
import type { SocialGraph } from './gen/social.js';

/** Whose figure this is: ours, a peer to beat, or the raw-substrate limit. */
export type Role = 'ours' | 'peer' | 'limit';

/** A maybe-asynchronous result (raw substrates answer synchronously, engines asynchronously). */
export type Maybe<T> = T | Promise<T>;

/** Queries whose plans must use an index (the anchor `Person {email}` / `Person {id}`). */
export type PlannedQuery = 'lookup' | 'oneHopCount' | 'oneHopExpand' | 'twoHop' | 'shortestPath';

/** A row of G5's expansion: neighbour name and age. */
export type NameAge = readonly [string, number];

/** A row of G8's aggregation: city, count, average age. */
export type CityStats = readonly [string, number, number];

/** New Person rows written by G2/G3. */
export interface NewPerson {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly age: number;
}

/** The operations of the graph workloads; an adapter leaves out those it cannot run. */
export interface GraphSubject {
  readonly name: string;
  readonly role: Role;
  /** What is being measured when it is not obvious (API path, settings). */
  readonly note?: string;
  /** Writes the input files `load` imports from, outside the timed part (like Kuzu's COPY input). */
  prepareImport?(graph: SocialGraph): void;
  /** G1: imports the graph until it is queryable (ids and both adjacency directions). */
  load(graph: SocialGraph): Promise<void>;
  /** The EXPLAIN plan (operator names) of a workload's query, when the adapter can tell. */
  explain?(query: PlannedQuery): Promise<string>;
  lookupByEmail?(email: string): Maybe<number | null>;
  oneHopCount?(id: number): Maybe<number>;
  oneHopExpand?(id: number): Maybe<readonly NameAge[]>;
  twoHopDistinct?(id: number): Maybe<number>;
  /** Length of a shortest undirected KNOWS path of at most `maxHops`, or null. */
  shortestPath?(a: number, b: number, maxHops: number): Maybe<number | null>;
  cityAggregate?(): Maybe<readonly CityStats[]>;
  countNodes?(): Maybe<number>;
  countRelationships?(): Maybe<number>;
  /** Ids of the first 100 Person nodes of a label scan (order is the engine's). */
  labelScan100?(): Maybe<readonly number[]>;
  /** G2: one auto-commit CREATE of a node. */
  createNode?(p: NewPerson): Maybe<void>;
  /** G2: one auto-commit CREATE of a relationship between existing Persons. */
  createRelationship?(from: number, to: number): Maybe<void>;
  /** G2c: one explicit transaction of one single-row `CREATE` per row (10 rows). */
  createInTransaction?(rows: readonly NewPerson[]): Maybe<void>;
  /** G3: `UNWIND $rows CREATE ...` in one transaction. */
  createBatch?(rows: readonly NewPerson[]): Maybe<void>;
  /** graphdb only: serves this loaded database over Bolt on an ephemeral port (G10). */
  serveBolt?(): Promise<{ readonly port: number; stop(): Promise<void> }>;
  close(): Promise<void>;
}

/** Canonical order for G5 expansion rows (engines return them in any order). */
export function sortNameAge(rows: readonly NameAge[]): NameAge[] {
  return [...rows].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1]));
}

/** Canonical order and rounding for G8 rows. */
export function canonicalCityStats(rows: readonly CityStats[]): CityStats[] {
  return rows.map(([c, n, a]) => [c, n, Math.round(a * 1e6) / 1e6] as const).sort((x, y) => (x[0] < y[0] ? -1 : 1));
}
