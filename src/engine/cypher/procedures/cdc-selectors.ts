/**
 * Neo4j's CDC event selectors (`db.cdc.query(from, [selector, ...])`): a change is returned when
 * any selector matches it. Fields (all but `select` optional):
 * - `select`: `e` (any entity), `n` (nodes), `r` (relationships);
 * - `operation`: `c`, `u` or `d`; `changesTo`: properties that must all have changed;
 * - `elementId`; for nodes `labels` (all present before or after the change) and `key` (values of
 *   key-constraint properties); for relationships `type`, `key`, and `start` / `end` node
 *   selectors (`elementId`, `labels`, `key`);
 * - `executingUser`, `authenticatedUser`, `txMetadata` (entries that must all be present).
 */
import { ArgumentError } from '../../errors/index.js';
import { encodeStandalone } from '../../storage/codec/value-codec.js';
import type { CypherMap, CypherValue } from '../../values/types.js';
import { valueText } from '../../values/to-string.js';
import { isList, isMap } from '../../values/kinds.js';

/** A validated selector. */
export interface ChangeSelector {
  readonly select: 'e' | 'n' | 'r';
  readonly fields: CypherMap;
}

const SELECT = ['e', 'n', 'r'];
const KNOWN: Readonly<Record<string, readonly string[]>> = {
  e: ['select', 'operation', 'changesTo', 'elementId', 'executingUser', 'authenticatedUser', 'txMetadata'],
  n: ['select', 'operation', 'changesTo', 'elementId', 'executingUser', 'authenticatedUser', 'txMetadata', 'labels', 'key'],
  r: ['select', 'operation', 'changesTo', 'elementId', 'executingUser', 'authenticatedUser', 'txMetadata', 'type', 'key', 'start', 'end'],
};

/** Validates one selector map. */
export function parseSelector(value: CypherMap | null): ChangeSelector {
  if (!isMap(value)) throw new ArgumentError('A CDC selector must be a map');
  const select = value.get('select');
  if (typeof select !== 'string' || !SELECT.includes(select))
    throw new ArgumentError(`Invalid CDC selector: 'select' must be one of 'e', 'n', 'r'`);
  for (const key of value.keys()) {
    if (!KNOWN[select]!.includes(key)) throw new ArgumentError(`Invalid CDC selector: unknown field '${key}' for select '${select}'`);
  }
  const operation = value.get('operation');
  if (operation !== undefined && operation !== null && !['c', 'u', 'd'].includes(valueText(operation))) {
    throw new ArgumentError(`Invalid CDC selector: 'operation' must be one of 'c', 'u', 'd'`);
  }
  return { select: select as ChangeSelector['select'], fields: value };
}

function same(a: CypherValue | undefined, b: CypherValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return Buffer.compare(encodeStandalone(a), encodeStandalone(b)) === 0;
}

function mapGet(map: CypherValue | undefined, key: string): CypherValue | undefined {
  return isMap(map) ? map.get(key) : undefined;
}

/** Every entry of `wanted` is present in `actual` with the same value. */
function containsAll(actual: CypherValue | undefined, wanted: CypherValue | undefined): boolean {
  if (!isMap(wanted)) return true;
  return [...wanted].every(([key, value]) => same(mapGet(actual, key), value));
}

function properties(event: CypherMap, side: 'before' | 'after'): CypherMap | null {
  const state = mapGet(mapGet(event, 'state'), side);
  const props = mapGet(state, 'properties');
  return isMap(props) ? props : null;
}

function changed(event: CypherMap, key: string): boolean {
  const before = properties(event, 'before');
  const after = properties(event, 'after');
  return !same(before?.get(key), after?.get(key));
}

function labelsOf(event: CypherMap): Set<string> {
  const labels = new Set<string>();
  for (const side of ['before', 'after'] as const) {
    const list = mapGet(mapGet(mapGet(event, 'state'), side), 'labels');
    if (isList(list)) for (const label of list) labels.add(valueText(label));
  }
  const current = mapGet(event, 'labels');
  if (isList(current)) for (const label of current) labels.add(valueText(label));
  return labels;
}

/** A `key` selector matches when one key-constraint entry of the entity has all its values. */
function keyMatches(keys: CypherValue | undefined, wanted: CypherValue | undefined): boolean {
  if (!isMap(wanted)) return true;
  if (!isMap(keys)) return false;
  for (const entries of keys.values()) {
    if (isList(entries) && entries.some((entry: CypherValue) => containsAll(entry, wanted))) return true;
  }
  return false;
}

function nodePartMatches(
  part: CypherValue | undefined,
  labels: ReadonlySet<string>,
  elementId: CypherValue | undefined,
  keys: CypherValue | undefined,
): boolean {
  if (!isMap(part)) return true;
  const wantedId = part.get('elementId');
  if (wantedId !== undefined && wantedId !== null && wantedId !== elementId) return false;
  const wantedLabels = part.get('labels');
  if (isList(wantedLabels) && !wantedLabels.every((l: CypherValue) => labels.has(valueText(l)))) return false;
  return keyMatches(keys, part.get('key'));
}

function endpointMatches(endpoint: CypherValue | undefined, wanted: CypherValue | undefined): boolean {
  const labels = mapGet(endpoint, 'labels');
  return nodePartMatches(
    wanted,
    new Set(isList(labels) ? labels.map(String) : []),
    mapGet(endpoint, 'elementId'),
    mapGet(endpoint, 'keys'),
  );
}

/** True when `selector` selects the change (`event`, `metadata` as db.cdc.query yields them). */
export function matchesSelector(selector: ChangeSelector, event: CypherMap, metadata: CypherMap): boolean {
  const f = selector.fields;
  const eventType = event.get('eventType');
  if (selector.select !== 'e' && selector.select !== eventType) return false;
  const operation = f.get('operation');
  if (operation !== undefined && operation !== null && operation !== event.get('operation')) return false;
  const elementId = f.get('elementId');
  if (elementId !== undefined && elementId !== null && elementId !== event.get('elementId')) return false;
  const changesTo = f.get('changesTo');
  if (isList(changesTo) && !changesTo.every((key: CypherValue) => changed(event, valueText(key)))) return false;
  for (const user of ['executingUser', 'authenticatedUser']) {
    const wanted = f.get(user);
    if (wanted !== undefined && wanted !== null && wanted !== metadata.get(user)) return false;
  }
  if (!containsAll(metadata.get('txMetadata'), f.get('txMetadata'))) return false;
  if (selector.select === 'n')
    return nodePartMatches(
      new Map([...f].filter(([k]) => k === 'labels' || k === 'key')),
      labelsOf(event),
      event.get('elementId'),
      event.get('keys'),
    );
  if (selector.select === 'r') {
    const type = f.get('type');
    if (type !== undefined && type !== null && type !== event.get('type')) return false;
    if (!keyMatches(event.get('keys'), f.get('key'))) return false;
    return endpointMatches(event.get('start'), f.get('start')) && endpointMatches(event.get('end'), f.get('end'));
  }
  return true;
}
