/**
 * Which predicates an index's entries can answer.
 */
import type { IndexEntry } from '../catalog/schema-catalog.js';
import type { IndexPredicate } from './graph-store.js';

/** Whether an index's entries can answer a predicate (TEXT holds strings only, POINT points only). */
export function indexAnswers(index: IndexEntry, predicate: IndexPredicate): boolean {
  switch (index.definition.type) {
    case 'RANGE':
      return true;
    case 'TEXT':
      return (
        predicate.kind === 'prefix' ||
        predicate.kind === 'contains' ||
        predicate.kind === 'suffix' ||
        (predicate.kind === 'equals' && typeof predicate.value === 'string')
      );
    default:
      return false;
  }
}
