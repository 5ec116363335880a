/**
 * Fans the engine's one post-commit change-event bus out to GraphQL subscriptions. Each
 * subscription names an event kind, a database and a filter (labels/types OR, or one id), all
 * checked here on the server; matching events go into the subscription's bounded queue.
 * Rolled-back transactions publish nothing, so they never reach a subscriber.
 */
import type { ChangeEvent, GraphReader, Node, Relationship } from '../../../engine/index.js';
import { nodeFromRecord, relationshipFromRecord, type GraphqlEngine } from '../graph-access.js';
import { BoundedQueue, SUBSCRIPTION_BUFFER } from './bounded-queue.js';

/** Subscription fields, named as the change events. */
export type ChangeKind = ChangeEvent['kind'];

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

function convert(reader: GraphReader, event: ChangeEvent): Converted {
  switch (event.kind) {
    case 'nodeCreated':
    case 'nodeUpdated': {
      const node = nodeFromRecord(reader, event.node);
      return { payload: node, elementId: node.elementId, names: node.labels };
    }
    case 'nodeDeleted': {
      const elementId = reader.nodeElementId(event.id);
      return { payload: elementId, elementId, names: event.labels };
    }
    case 'relationshipCreated':
    case 'relationshipUpdated': {
      const relationship = relationshipFromRecord(reader, event.relationship);
      return { payload: relationship, elementId: relationship.elementId, names: [relationship.type] };
    }
    case 'relationshipDeleted': {
      const elementId = reader.relationshipElementId(event.id);
      return { payload: elementId, elementId, names: [event.type] };
    }
  }
}

function matches(filter: SubscriptionFilter, converted: Converted): boolean {
  if (filter.elementId !== null && filter.elementId !== converted.elementId) return false;
  return filter.names.length === 0 || converted.names.some((name) => filter.names.includes(name));
}

/** The subscriptions of one engine. */
export class ChangeHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly unsubscribe: () => void;
  /** The delivery of earlier commits' events (each waits for the one before). */
  private delivering: Promise<void> = Promise.resolve();

  constructor(
    private readonly engine: GraphqlEngine,
    private readonly capacity: number = SUBSCRIPTION_BUFFER,
    /** Told about a batch that could not be delivered (the committing writer is never affected). */
    private readonly onError: (error: unknown) => void = () => {},
  ) {
    this.unsubscribe = engine.onChange((events) => {
      try {
        this.publish(events);
      } catch (error) {
        this.onError(error);
      }
    });
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
      queue: new BoundedQueue<ChangePayload>(this.capacity, () => this.subscribers.delete(subscriber)),
    };
    this.subscribers.add(subscriber);
    return subscriber.queue;
  }

  /**
   * Groups a commit's events by database in one pass and queues their delivery behind the
   * batches still being delivered, so subscribers see commits in order.
   */
  private publish(events: readonly ChangeEvent[]): void {
    if (this.subscribers.size === 0) return;
    const byDatabase = new Map<string, ChangeEvent[]>();
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
  private async deliver(byDatabase: ReadonlyMap<string, readonly ChangeEvent[]>): Promise<void> {
    for (const [database, batch] of byDatabase) {
      const byKind = new Map<ChangeKind, Subscriber[]>();
      for (const subscriber of this.subscribers) {
        if (subscriber.database !== database) continue;
        const listeners = byKind.get(subscriber.kind);
        if (listeners === undefined) byKind.set(subscriber.kind, [subscriber]);
        else listeners.push(subscriber);
      }
      if (byKind.size === 0) continue;
      const reader = this.engine.databaseServices.snapshot(database);
      try {
        let sliceStart = performance.now();
        for (let i = 0; i < batch.length; i++) {
          const event = batch[i]!;
          const listeners = byKind.get(event.kind);
          if (listeners !== undefined) {
            const converted = convert(reader, event);
            for (const subscriber of listeners) if (matches(subscriber.filter, converted)) subscriber.queue.push(converted.payload);
          }
          if ((i & 255) === 255 && performance.now() - sliceStart >= DELIVERY_SLICE_MS) {
            await new Promise<void>((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
        }
      } finally {
        reader.close();
      }
    }
  }

  /** Ends every subscription and leaves the bus. */
  close(): void {
    this.unsubscribe();
    for (const subscriber of [...this.subscribers]) subscriber.queue.end();
  }
}
