/**
 * Cache of logical plans, so a repeated statement skips planning and the rewrite passes.
 *
 * Entries hang off the compiled `Statement` object (the front end's QueryCache returns the same
 * object for the same text and drops it when a procedure or function it used changes), so the
 * statement text is the key and nothing outlives the compiled statement. Planning does not look
 * at parameter values or types, only at the catalog: while a statement is planned, every catalog
 * lookup is recorded, and a cached plan is reused only when the current transaction's catalog
 * answers every recorded index lookup the same way. Creating or dropping an index or constraint
 * (committed, or uncommitted inside the running transaction) therefore re-plans exactly the
 * statements whose choices it can change. Counts only steer the choice of anchor (cost, never
 * results); they are re-read at most once per {@link COUNT_RECHECK_MS} and the statement is
 * re-planned when one moved by more than half (Neo4j's statistics divergence, simplified).
 */
import { invariant } from '../errors/index.js';
import type { GraphReader, IndexDefinition } from '../storage/graph-store.js';
import type { Statement } from '../cypher/ast/index.js';
import { PlannerContext } from '../cypher/planner/planner-context.js';
import type { PlannerCatalog, ProcedureSignature } from '../cypher/planner/planner-context.js';
import { planStatement } from '../cypher/planner/plan-statement.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import type { PhysicalOperator } from '../cypher/runtime/operators/physical-operator.js';

/** How often the counts a cached plan was built on are compared with the current ones. */
export const COUNT_RECHECK_MS = 1000;

/** Relative change of a count that makes a cached plan stale (and at least this many entities). */
const COUNT_DIVERGENCE = 0.5;
const COUNT_SLACK = 100;

type Catalog = PlannerCatalog;

/** One index lookup the planner made and what it returned. */
interface IndexLookup {
  readonly entityType: 'NODE' | 'RELATIONSHIP';
  readonly labelOrType: string;
  readonly property: string;
  /** The definition returned (the object, compared by identity first). */
  definition: IndexDefinition | null;
  readonly signature: string;
}

/** One count the planner read. */
interface CountLookup {
  readonly kind: 'nodes' | 'relationships';
  readonly token: string | undefined;
  readonly count: number;
}

/**
 * The physical operators of a cached plan, mapped on first execution and shared by later ones
 * (operators keep no state outside their generators). Null when the plan has nested plans,
 * which are planned at run time against one transaction's catalog and so are never shared.
 */
export interface PhysicalSlot {
  physical: PhysicalOperator | null | undefined;
}

/** A plan as the session uses it: the logical plan plus its shared physical slot. */
export interface PlannedStatement extends StatementPlan {
  readonly slot: PhysicalSlot;
}

interface Entry {
  readonly plan: StatementPlan;
  readonly slot: PhysicalSlot;
  /** The planner's anonymous-name counter after planning (forks continue from it). */
  readonly counter: number;
  readonly indexes: readonly IndexLookup[];
  readonly counts: readonly CountLookup[];
  countsCheckedAt: number;
  /** The context the plan was built with (its catalog refuses use after planning). */
  readonly planningContext: PlannerContext;
  /**
   * Once the physical operators are shared, the plan no longer plans anything at run time, so
   * every execution gets this one object (its context reads no transaction).
   */
  shared?: PlannedStatement;
}

function signatureOf(definition: IndexDefinition | null): string {
  if (definition === null) return '';
  return [definition.name, definition.type, definition.state, definition.labelsOrTypes.join(','), definition.properties.join(',')].join(
    '\u0000',
  );
}

/** A catalog that records every answer it gives. */
class RecordingCatalog implements Catalog {
  readonly indexes: IndexLookup[] = [];
  readonly counts: CountLookup[] = [];

  constructor(private inner: Catalog | null) {}

  /** Drops the reader once planning is done, so a cached plan never keeps a transaction alive. */
  release(): void {
    this.inner = null;
  }

  private get catalog(): Catalog {
    invariant(this.inner !== null, 'the planning catalog of a cached plan was used after planning');
    return this.inner;
  }

  findIndex(entityType: 'NODE' | 'RELATIONSHIP', labelOrType: string, property: string): IndexDefinition | null {
    const definition = this.catalog.findIndex(entityType, labelOrType, property);
    this.indexes.push({ entityType, labelOrType, property, definition, signature: signatureOf(definition) });
    return definition;
  }

  countNodes(label?: string): number {
    const count = this.catalog.countNodes(label);
    this.counts.push({ kind: 'nodes', token: label, count });
    return count;
  }

  countRelationships(type?: string): number {
    const count = this.catalog.countRelationships(type);
    this.counts.push({ kind: 'relationships', token: type, count });
    return count;
  }
}

function indexesCurrent(entry: Entry, catalog: Catalog): boolean {
  for (const lookup of entry.indexes) {
    const now = catalog.findIndex(lookup.entityType, lookup.labelOrType, lookup.property);
    if (now === lookup.definition) continue;
    if (signatureOf(now) !== lookup.signature) return false;
    lookup.definition = now;
  }
  return true;
}

function countsCurrent(entry: Entry, catalog: Catalog): boolean {
  if (entry.counts.length === 0) return true;
  const now = performance.now();
  if (now - entry.countsCheckedAt < COUNT_RECHECK_MS) return true;
  for (const lookup of entry.counts) {
    const count = lookup.kind === 'nodes' ? catalog.countNodes(lookup.token) : catalog.countRelationships(lookup.token);
    if (Math.abs(count - lookup.count) > Math.max(COUNT_SLACK, lookup.count * COUNT_DIVERGENCE)) return false;
  }
  entry.countsCheckedAt = now;
  return true;
}

/** Cached plans per compiled statement (several when databases' catalogs differ). */
const cache = new WeakMap<Statement, Entry[]>();
/** Entries kept per statement (one per distinct catalog state in use, e.g. per database). */
const ENTRIES_PER_STATEMENT = 4;

let hits = 0;
let misses = 0;

/** Hit and miss counts since start (tests and metrics). */
export function planCacheStats(): { hits: number; misses: number } {
  return { hits, misses };
}

/**
 * The plan of `statement` against `reader`'s catalog: cached when still valid, else planned
 * (and cached). The returned plan's planner context reads `reader`, so subquery expressions
 * planned at run time see the running transaction's catalog.
 */
export function cachedPlan(statement: Statement, reader: GraphReader, procedure: (name: string) => ProcedureSignature): PlannedStatement {
  const entries = cache.get(statement);
  if (entries !== undefined) {
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (indexesCurrent(entry, reader) && countsCurrent(entry, reader)) {
        hits++;
        if (entry.slot.physical && entry.plan.explain !== 'PROFILE') {
          entry.shared ??= { ...entry.plan, context: entry.planningContext, slot: entry.slot };
          return entry.shared;
        }
        return { ...entry.plan, context: new PlannerContext(reader, procedure, entry.counter), slot: entry.slot };
      }
    }
  }
  misses++;
  const recording = new RecordingCatalog(reader);
  const context = new PlannerContext(recording, procedure);
  let plan: StatementPlan;
  try {
    plan = planStatement(statement, context);
  } finally {
    recording.release();
  }
  const entry: Entry = {
    plan,
    slot: { physical: undefined },
    counter: context.nextAnonymous,
    indexes: recording.indexes,
    counts: recording.counts,
    countsCheckedAt: performance.now(),
    planningContext: context,
  };
  const list = entries ?? [];
  list.unshift(entry);
  if (list.length > ENTRIES_PER_STATEMENT) list.length = ENTRIES_PER_STATEMENT;
  if (entries === undefined) cache.set(statement, list);
  return { ...plan, context: new PlannerContext(reader, procedure, entry.counter), slot: entry.slot };
}
