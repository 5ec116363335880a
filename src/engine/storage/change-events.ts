/**
 * Turns a transaction's tracked changes into the ChangeEvents published after commit, reading
 * the final state of created and updated entities (inside the transaction, before COMMIT).
 */
import type { ChangeEvent, GraphReader } from './graph-store.js';
import type { TxState } from './tx-state.js';
import type { TimeSlice } from './time-slice.js';

/** The events of one transaction, nodes first, in first-change order. */
export function buildChangeEvents(reader: GraphReader, state: TxState, database: string): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  for (const step of eventSteps(reader, state, database, events)) void step;
  return events;
}

/** `buildChangeEvents` in time slices, giving the event loop back between them (large transactions). */
export async function buildChangeEventsSliced(
  reader: GraphReader,
  state: TxState,
  database: string,
  slice: TimeSlice,
): Promise<ChangeEvent[]> {
  const events: ChangeEvent[] = [];
  for (const step of eventSteps(reader, state, database, events)) if (step && slice.due) await slice.yield();
  return events;
}

/** Appends the events to `events`; yields true after every 256 entities read. */
function* eventSteps(reader: GraphReader, state: TxState, database: string, events: ChangeEvent[]): Generator<boolean> {
  const { nodeChanges, relChanges } = state;
  if (nodeChanges === null || relChanges === null) return;
  let read = 0;
  for (const [id, change] of nodeChanges) {
    if (change.kind === 'deleted') {
      events.push({ kind: 'nodeDeleted', database, id, labels: change.labels ?? [] });
      continue;
    }
    const node = reader.getNode(id);
    if (node !== null) events.push({ kind: change.kind === 'created' ? 'nodeCreated' : 'nodeUpdated', database, node });
    if ((++read & 255) === 0) yield true;
  }
  for (const [id, change] of relChanges) {
    if (change.kind === 'deleted') {
      events.push({ kind: 'relationshipDeleted', database, id, type: change.type ?? '' });
      continue;
    }
    const relationship = reader.getRelationship(id);
    if (relationship !== null) {
      events.push({ kind: change.kind === 'created' ? 'relationshipCreated' : 'relationshipUpdated', database, relationship });
    }
    if ((++read & 255) === 0) yield true;
  }
}
