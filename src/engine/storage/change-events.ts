/**
 * Turns a transaction's tracked changes into the ChangeEvents published after commit, reading
 * the final state of created and updated entities (inside the transaction, before COMMIT).
 */
import type { ChangeEvent, GraphReader } from './graph-store.js';
import type { TxState } from './tx-state.js';

/** The events of one transaction, nodes first, in first-change order. */
export function buildChangeEvents(reader: GraphReader, state: TxState, database: string): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  const { nodeChanges, relChanges } = state;
  if (nodeChanges === null || relChanges === null) return events;
  for (const [id, change] of nodeChanges) {
    if (change.kind === 'deleted') {
      events.push({ kind: 'nodeDeleted', database, id, labels: change.labels ?? [] });
      continue;
    }
    const node = reader.getNode(id);
    if (node !== null) events.push({ kind: change.kind === 'created' ? 'nodeCreated' : 'nodeUpdated', database, node });
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
  }
  return events;
}
