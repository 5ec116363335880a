/**
 * Fans the engine's one post-commit change feed (`GraphDB.onChange`, materialized nodes and
 * relationships) out to GraphQL subscriptions. Each subscription names an event kind, a database
 * and a filter (labels/types OR, or one id), all checked here on the server; matching events go
 * into the subscription's bounded queue. The hub listens to the engine only while a subscription
 * is open. Rolled-back transactions publish nothing, so they never reach a subscriber.
 */
import type { EntityChange, EntityChangeKind, Node, Relationship } from '../../../engine/index.js';
import type { GraphqlEngine } from '../graph-access.js';
import { BoundedQueue, SUBSCRIPTION_BUFFER } from './bounded-queue.js';

/** Subscription fields, named as the change events. */
export type ChangeKind = EntityChangeKind;

/** What a subscription asks for. */
export interface SubscriptionFilter {
  /** Node labels or relationship types; an event matches when it has any of them. Empty: all. */
  readonly names: readonly string[];
  /** Only events of this element id (updates). */
  readonly elementId: string | null;
}

/** A payload: the entity for created/updated events, its element id for deletions. */
export type ChangePayload = Node | Relationship | string;

/** Longest a delivery runs before it yields to the event loop. */
const DELIVERY_SLICE_MS = 8;

interface Subscriber {
  readonly kind: ChangeKind;
  readonly database: string;
  readonly filter: SubscriptionFilter;
  readonly queue: BoundedQueue<ChangePayload>;
}

interface Converted {
  readonly payload: ChangePayload;
  readonly elementId: string;
  readonly names: readonly string[];
}

function convert(change: EntityChange): Converted {
  switch (change.kind) {
    case 'nodeCreated':
    case 'nodeUpdated':
      return { payload: change.node, elementId: change.node.elementId, names: change.node.labels };
    case 'nodeDeleted':
      return { payload: change.elementId, elementId: change.elementId, names: change.labels };
    case 'relationshipCreated':
    case 'relationshipUpdated':
      return { payload: change.relationship, elementId: change.relationship.elementId, names: [change.relationship.type] };
    case 'relationshipDeleted':
      return { payload: change.elementId, elementId: change.elementId, names: [change.type] };
  }
}

function matches(filter: SubscriptionFilter, converted: Converted): boolean {
  if (filter.elementId !== null && filter.elementId !== converted.elementId) return false;
  return filter.names.length === 0 || converted.names.some((name) => filter.names.includes(name));
}

/** The subscriptions of one engine. */
export class ChangeHub {
  private readonly subscribers = new Set<Subscriber>();
  /** Leaves the engine's change feed; null while no subscription is open. */
  private unsubscribe: (() => void) | null = null;
  /** The delivery of earlier commits' events (each waits for the one before). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: Pick<GraphqlEngine, 'onChange'>,
    private readonly capacity: number = SUBSCRIPTION_BUFFER,
    /** Told about a batch that could not be delivered (the committing writer is never affected). */
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  private listen(): void {
    this.unsubscribe ??= this.engine.onChange((changes) => {
      try {
        this.publish(changes);
      } catch (error) {
        this.onError(error);
      }
    });
  }

  private removed(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0) {
      this.unsubscribe?.();
      this.unsubscribe = null;
    }
  }

  /** Number of open subscriptions. */
  get size(): number {
    return this.subscribers.size;
  }

  /** Opens a subscription; iterate the queue, `return()` it to unsubscribe. */
  subscribe(kind: ChangeKind, database: string, filter: SubscriptionFilter): BoundedQueue<ChangePayload> {
    const subscriber: Subscriber = {
      kind,
      database: database.toLowerCase(),
      filter,
      queue: new BoundedQueue<ChangePayload>(this.capacity, () => this.removed(subscriber)),
    };
    this.subscribers.add(subscriber);
    this.listen();
    return subscriber.queue;
  }

  /**
   * Groups a commit's events by database in one pass and queues their delivery behind the
   * batches still being delivered, so subscribers see commits in order.
   */
  private publish(events: readonly EntityChange[]): void {
    if (this.subscribers.size === 0) return;
    const byDatabase = new Map<string, EntityChange[]>();
    for (const event of events) {
      const key = event.database.toLowerCase();
      let batch = byDatabase.get(key);
      if (batch === undefined) byDatabase.set(key, (batch = []));
      batch.push(event);
    }
    this.delivering = this.delivering.then(() => this.deliver(byDatabase)).catch((error: unknown) => this.onError(error));
  }

  /**
   * Converts and queues the events of each database, yielding to the event loop every
   * {@link DELIVERY_SLICE_MS} so a commit of many thousands of changes never stalls other work.
   */
  private async deliver(byDatabase: ReadonlyMap<string, readonly EntityChange[]>): Promise<void> {
    for (const [database, batch] of byDatabase) {
      const byKind = new Map<ChangeKind, Subscriber[]>();
      for (const subscriber of this.subscribers) {
        if (subscriber.database !== database) continue;
        const listeners = byKind.get(subscriber.kind);
        if (listeners === undefined) byKind.set(subscriber.kind, [subscriber]);
        else listeners.push(subscriber);
      }
      if (byKind.size === 0) continue;
      let sliceStart = performance.now();
      for (let i = 0; i < batch.length; i++) {
        const change = batch[i]!;
        const listeners = byKind.get(change.kind);
        if (listeners !== undefined) {
          const converted = convert(change);
          for (const subscriber of listeners) if (matches(subscriber.filter, converted)) subscriber.queue.push(converted.payload);
        }
        if ((i & 255) === 255 && performance.now() - sliceStart >= DELIVERY_SLICE_MS) {
          await new Promise<void>((resolve) => setImmediate(resolve));
          sliceStart = performance.now();
        }
      }
    }
  }

  /** Ends every subscription and leaves the bus. */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const subscriber of [...this.subscribers]) subscriber.queue.end();
  }
}
