/**
 * The in-memory state a write transaction accumulates besides its SQLite writes: summary
 * counters, count deltas (flushed to SQLite at commit), change tracking for events and the
 * entities to check at commit. `snapshot()`/`restore()` implement savepoints.
 */
import type { WriteCounters } from './graph-store.js';

/** Fresh zeroed counters. */
export function emptyCounters(): WriteCounters {
  return {
    nodesCreated: 0,
    nodesDeleted: 0,
    relationshipsCreated: 0,
    relationshipsDeleted: 0,
    propertiesSet: 0,
    labelsAdded: 0,
    labelsRemoved: 0,
    indexesAdded: 0,
    indexesRemoved: 0,
    constraintsAdded: 0,
    constraintsRemoved: 0,
  };
}

/** What happened to an entity in this transaction (the last word wins, created stays created). */
export type ChangeKind = 'created' | 'updated' | 'deleted';

/** A node or relationship change: for deletions, the labels or type it had. */
export interface TrackedChange {
  kind: ChangeKind;
  labels?: readonly string[];
  type?: string;
}

function addDelta(map: Map<number, number>, key: number, delta: number): void {
  map.set(key, (map.get(key) ?? 0) + delta);
}

/** Mutable per-transaction bookkeeping. */
export class TxState {
  counters: WriteCounters = emptyCounters();
  nodeDelta = 0;
  relDelta = 0;
  labelDeltas = new Map<number, number>();
  typeDeltas = new Map<number, number>();
  /** Node/relationship changes for events; null when nobody listens. */
  nodeChanges: Map<bigint, TrackedChange> | null;
  relChanges: Map<bigint, TrackedChange> | null;
  /** Entities to check against existence/type constraints at commit; null when none exist. */
  touchedNodes = new Set<bigint>();
  touchedRels = new Set<bigint>();
  /** Nodes deleted without DETACH: they must have no relationships at commit. */
  nonDetachDeleted: bigint[] = [];
  dirty = false;

  constructor(trackChanges: boolean) {
    this.nodeChanges = trackChanges ? new Map() : null;
    this.relChanges = trackChanges ? new Map() : null;
  }

  /** Entities whose changes are tracked for events (0 when nobody listens). */
  get trackedChanges(): number {
    return (this.nodeChanges?.size ?? 0) + (this.relChanges?.size ?? 0);
  }

  labelDelta(labelId: number, delta: number): void {
    addDelta(this.labelDeltas, labelId, delta);
  }

  typeDelta(typeId: number, delta: number): void {
    addDelta(this.typeDeltas, typeId, delta);
  }

  nodeChanged(id: bigint, kind: ChangeKind, labels?: readonly string[]): void {
    if (this.nodeChanges !== null) track(this.nodeChanges, id, kind, { labels });
  }

  relChanged(id: bigint, kind: ChangeKind, type?: string): void {
    if (this.relChanges !== null) track(this.relChanges, id, kind, { type });
  }

  /** A copy for savepoints. */
  snapshot(): TxState {
    const copy = new TxState(false);
    copy.counters = { ...this.counters };
    copy.nodeDelta = this.nodeDelta;
    copy.relDelta = this.relDelta;
    copy.labelDeltas = new Map(this.labelDeltas);
    copy.typeDeltas = new Map(this.typeDeltas);
    copy.nodeChanges = this.nodeChanges === null ? null : cloneChanges(this.nodeChanges);
    copy.relChanges = this.relChanges === null ? null : cloneChanges(this.relChanges);
    copy.touchedNodes = new Set(this.touchedNodes);
    copy.touchedRels = new Set(this.touchedRels);
    copy.nonDetachDeleted = [...this.nonDetachDeleted];
    copy.dirty = this.dirty;
    return copy;
  }

  /** Restores a snapshot taken by `snapshot()`. */
  restore(from: TxState): void {
    Object.assign(this, from.snapshot());
  }
}

function cloneChanges(map: Map<bigint, TrackedChange>): Map<bigint, TrackedChange> {
  const copy = new Map<bigint, TrackedChange>();
  for (const [id, change] of map) copy.set(id, { ...change });
  return copy;
}

function track(map: Map<bigint, TrackedChange>, id: bigint, kind: ChangeKind, extra: { labels?: readonly string[]; type?: string }): void {
  const previous = map.get(id);
  if (previous === undefined) {
    map.set(id, { kind, ...extra });
    return;
  }
  if (kind === 'deleted') {
    if (previous.kind === 'created') map.delete(id);
    else map.set(id, { kind, ...extra });
  }
}
