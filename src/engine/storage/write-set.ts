/**
 * The write set of an explicit transaction: its changes as an ordered list of logical writes,
 * kept in memory between statements. The writer connection holds them (applied, uncommitted)
 * only while the transaction runs a statement or commits; when another writer needs the
 * connection, the idle transaction's SQLite transaction is rolled back ("parked") and the write
 * set is applied again, in one go, before its next statement or at commit. Entity locks taken at
 * each write keep other transactions off what the set changes; the version each entity had when
 * this transaction first changed it is checked again at every apply (first committer wins).
 */
import { TransientError, graphError } from '../errors/index.js';
import { StatusCodes } from '../errors/status-codes.js';
import type { EntityLocks, LockOwner } from '../mvcc/entity-locks.js';
import { CypherPoint } from '../values/types.js';
import type { CypherMap, CypherValue } from '../values/types.js';
import type { GraphWriter } from './graph-store.js';
import { isList, isMap } from '../values/kinds.js';

/** One logical write, with the id it created or changed. */
export type WriteOp =
  | {
      readonly op: 'createNode';
      readonly id: bigint;
      readonly labels: readonly string[];
      readonly props: CypherMap;
      readonly merge: boolean;
    }
  | { readonly op: 'setNodeProperty'; readonly id: bigint; readonly key: string; readonly value: CypherValue }
  | { readonly op: 'replaceNodeProperties'; readonly id: bigint; readonly props: CypherMap }
  | { readonly op: 'addLabels' | 'removeLabels'; readonly id: bigint; readonly labels: readonly string[] }
  | { readonly op: 'deleteNode'; readonly id: bigint; readonly detach: boolean }
  | {
      readonly op: 'createRelationship';
      readonly id: bigint;
      readonly type: string;
      readonly start: bigint;
      readonly end: bigint;
      readonly props: CypherMap;
      readonly merge: boolean;
    }
  | { readonly op: 'setRelationshipProperty'; readonly id: bigint; readonly key: string; readonly value: CypherValue }
  | { readonly op: 'replaceRelationshipProperties'; readonly id: bigint; readonly props: CypherMap }
  | { readonly op: 'deleteRelationship'; readonly id: bigint };

/** What a write transaction consults at each change: entity locks, first-write versions, the write set. */
export interface WriteGuard {
  /** Takes an exclusive entity lock; throws LockWaitRequired when another transaction holds it. */
  lock(key: string): void;
  /** The head version of `key` the first time this SQLite transaction changes it (conflict check). */
  firstWrite(key: string, version: bigint): void;
  /** Records a completed write (the write set); ignored while the set is being applied again. */
  record(op: WriteOp): void;
}

/** A writer that creates with given ids when the write set is applied again. */
export interface ReplayTarget extends GraphWriter {
  nextNodeId: bigint;
  nextRelId: bigint;
  createNode(labels: readonly string[], properties: CypherMap, options?: { readonly merge?: boolean }): bigint;
  createRelationship(type: string, startId: bigint, endId: bigint, properties: CypherMap, options?: { readonly merge?: boolean }): bigint;
}

/** Rough in-memory size of a value, in bytes (for the write-set bound). */
export function valueBytes(value: CypherValue): number {
  if (value === null || typeof value === 'boolean') return 8;
  if (typeof value === 'string') return 16 + value.length * 2;
  if (typeof value === 'number' || typeof value === 'bigint') return 16;
  if (value instanceof Uint8Array) return 16 + value.byteLength;
  if (isList(value)) return value.reduce<number>((sum, v) => sum + valueBytes(v), 16);
  if (isMap(value)) {
    let sum = 32;
    for (const [k, v] of value) sum += 16 + k.length * 2 + valueBytes(v);
    return sum;
  }
  return value instanceof CypherPoint ? 48 : 64;
}

function opBytes(op: WriteOp): number {
  let bytes = 64;
  if ('props' in op) bytes += valueBytes(op.props);
  if ('value' in op) bytes += valueBytes(op.value) + op.key.length * 2;
  if ('labels' in op) for (const label of op.labels) bytes += 16 + label.length * 2;
  return bytes;
}

/** Where a statement started in the write set (to undo it before a lock wait). */
export interface WriteSetMark {
  readonly ops: number;
  readonly bytes: number;
  readonly bases: number;
}

/** The ordered writes of one explicit transaction, its entity locks and first-write versions. */
export class WriteSet implements WriteGuard {
  private ops: WriteOp[] = [];
  private bytes = 0;
  private readonly baseVersions = new Map<string, bigint>();
  /** Keys of `baseVersions` in insertion order (undone with a statement). */
  private baseOrder: string[] = [];
  private replaying = false;

  constructor(
    private readonly locks: EntityLocks,
    readonly owner: LockOwner,
    /** Bytes the set may hold (database.transaction_max_write_set); Infinity for no bound. */
    private readonly maxBytes: number,
  ) {}

  /** Number of writes recorded. */
  get size(): number {
    return this.ops.length;
  }

  /** Estimated bytes held. */
  get estimatedBytes(): number {
    return this.bytes;
  }

  lock(key: string): void {
    this.locks.take(this.owner, key);
  }

  firstWrite(key: string, version: bigint): void {
    const base = this.baseVersions.get(key);
    if (base === undefined) {
      this.baseVersions.set(key, version);
      this.baseOrder.push(key);
    } else if (base !== version) {
      throw new TransientError(
        StatusCodes.Outdated,
        'Transaction has seen state which has been invalidated by applied updates while transaction was active. Transaction may succeed if retried.',
      );
    }
  }

  record(op: WriteOp): void {
    if (this.replaying) return;
    const bytes = opBytes(op);
    if (this.bytes + bytes > this.maxBytes) {
      throw graphError(
        StatusCodes.ResourcePressure,
        `The allocation of an extra ${bytes} bytes would use more than the limit ${this.maxBytes} bytes of the transaction's write set. Currently using ${this.bytes} bytes. database.transaction_max_write_set threshold reached.`,
      );
    }
    this.bytes += bytes;
    this.ops.push(op);
  }

  /** The current end of the set (a statement's start). */
  mark(): WriteSetMark {
    return { ops: this.ops.length, bytes: this.bytes, bases: this.baseOrder.length };
  }

  /** Forgets the writes and first-write versions recorded after `mark`. */
  undoTo(mark: WriteSetMark): void {
    this.ops.length = mark.ops;
    this.bytes = mark.bytes;
    for (const key of this.baseOrder.splice(mark.bases)) this.baseVersions.delete(key);
  }

  /** Releases every entity lock (commit or rollback). */
  release(): void {
    this.locks.releaseAll(this.owner);
  }

  /**
   * Applies the set to a fresh write transaction, in order and with the same ids. Calls `pause`
   * every `sliceSize` writes so a large set does not hold the event loop.
   */
  async applyTo(writer: ReplayTarget, pause: () => Promise<void>, sliceSize = 2048): Promise<void> {
    this.replaying = true;
    try {
      let done = 0;
      for (const op of this.ops) {
        applyOne(writer, op);
        if (++done % sliceSize === 0) await pause();
      }
    } finally {
      this.replaying = false;
    }
  }
}

function withId<T>(writer: ReplayTarget, which: 'nextNodeId' | 'nextRelId', id: bigint, create: () => T): T {
  const next = writer[which];
  writer[which] = id;
  try {
    return create();
  } finally {
    writer[which] = next;
  }
}

function applyOne(writer: ReplayTarget, op: WriteOp): void {
  switch (op.op) {
    case 'createNode':
      withId(writer, 'nextNodeId', op.id, () => writer.createNode(op.labels, op.props, { merge: op.merge }));
      return;
    case 'setNodeProperty':
      return writer.setNodeProperty(op.id, op.key, op.value);
    case 'replaceNodeProperties':
      return writer.replaceNodeProperties(op.id, op.props);
    case 'addLabels':
      writer.addLabels(op.id, op.labels);
      return;
    case 'removeLabels':
      writer.removeLabels(op.id, op.labels);
      return;
    case 'deleteNode':
      return writer.deleteNode(op.id, op.detach);
    case 'createRelationship':
      withId(writer, 'nextRelId', op.id, () => writer.createRelationship(op.type, op.start, op.end, op.props, { merge: op.merge }));
      return;
    case 'setRelationshipProperty':
      return writer.setRelationshipProperty(op.id, op.key, op.value);
    case 'replaceRelationshipProperties':
      return writer.replaceRelationshipProperties(op.id, op.props);
    case 'deleteRelationship':
      return writer.deleteRelationship(op.id);
  }
}

/** The guard of an auto-commit statement: entity locks only (it commits at once, nothing is kept). */
export function lockingGuard(locks: EntityLocks, owner: LockOwner): WriteGuard {
  return {
    lock: (key) => locks.take(owner, key),
    firstWrite: () => undefined,
    record: () => undefined,
  };
}
