/**
 * apoc.map: building, merging, reading, flattening and sorting maps.
 */
import { groupKey } from '../../../values/group-key.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import { NodeRef } from '../../../values/types.js';
import { executionOf, fn, illegalArgument } from './define.js';
import { javaText } from './format.js';
import { cfgBoolean, listArg, mapArg, propsOf } from './values.js';
import { valueText } from '../../../values/to-string.js';
import { isList, isMap } from '../../../values/kinds.js';

const M = (v: CypherValue | undefined): CypherMap => mapArg(v ?? null);
const L = (v: CypherValue | undefined) => listArg(v ?? null);

function keyText(v: CypherValue): string {
  return typeof v === 'string' ? v : javaText(v);
}

function pairsToMap(base: CypherMap, pairs: readonly CypherValue[]): Map<string, CypherValue> {
  const out = new Map(base);
  for (const pair of pairs) {
    const p = L(pair);
    if (p[0] === null || p[0] === undefined) continue;
    out.set(keyText(p[0]), p[1] ?? null);
  }
  return out;
}

function missingKey(key: string, map: CypherMap): Error {
  return illegalArgument(`Key ${key} is not of one of the existing keys [${[...map.keys()].join(', ')}]`);
}

function flatten(map: CypherMap, delimiter: string, prefix = '', out = new Map<string, CypherValue>()): Map<string, CypherValue> {
  for (const [k, v] of map) {
    const key = prefix === '' ? k : `${prefix}${delimiter}${k}`;
    if (isMap(v)) flatten(v, delimiter, key, out);
    else out.set(key, v);
  }
  return out;
}

function unflatten(map: CypherMap, delimiter: string): Map<string, CypherValue> {
  const out = new Map<string, CypherValue>();
  for (const [k, v] of map) {
    const parts = k.split(delimiter);
    let target = out;
    for (const part of parts.slice(0, -1)) {
      let next = target.get(part);
      if (!isMap(next)) target.set(part, (next = new Map<string, CypherValue>()));
      target = next as Map<string, CypherValue>;
    }
    target.set(parts[parts.length - 1]!, v);
  }
  return out;
}

function removeKeys(value: CypherValue, keys: ReadonlySet<string>, recursive: boolean): CypherValue {
  if (isMap(value)) {
    const out = new Map<string, CypherValue>();
    for (const [k, v] of value) if (!keys.has(k)) out.set(k, recursive ? removeKeys(v, keys, true) : v);
    return out;
  }
  if (recursive && isList(value)) return value.map((v: CypherValue) => removeKeys(v, keys, true));
  return value;
}

function updateTree(tree: CypherMap, key: string, data: readonly CypherValue[]): CypherMap {
  const updates = new Map<string, CypherMap>();
  for (const entry of data) {
    const pair = L(entry);
    if (pair[0] !== undefined) updates.set(groupKey(pair[0]), M(pair[1]));
  }
  const visit = (v: CypherValue): CypherValue => {
    if (isList(v)) return v.map(visit);
    if (!isMap(v)) return v;
    const out = new Map<string, CypherValue>([...v].map(([k, x]) => [k, visit(x)]));
    const id = v.get(key);
    const update = id === undefined ? undefined : updates.get(groupKey(id));
    if (update) for (const [k, x] of update) out.set(k, x);
    return out;
  };
  return visit(tree) as CypherMap;
}

/** The apoc.map functions. */
export const mapEntries = [
  fn(
    'apoc.map.fromLists(keys :: LIST<STRING>, values :: LIST<ANY>) :: MAP',
    'Creates a `MAP` from the keys and values in the given `LIST<ANY>` values.',
    ([keys, values]) => {
      if (L(keys).length !== L(values).length) throw illegalArgument('keys and values lists have to be of equal size');
      return new Map(L(keys).map((k, i) => [keyText(k), L(values)[i] ?? null]));
    },
  ),
  fn(
    'apoc.map.fromPairs(pairs :: LIST<LIST<ANY>>) :: MAP',
    'Creates a `MAP` from the given `LIST<LIST<ANY>>` of key-value pairs.',
    ([pairs]) => pairsToMap(new Map(), L(pairs)),
  ),
  fn(
    'apoc.map.fromValues(values :: LIST<ANY>) :: MAP',
    'Creates a `MAP` from the alternating keys and values in the given `LIST<ANY>`.',
    ([values]) => {
      const list = L(values);
      const out = new Map<string, CypherValue>();
      for (let i = 0; i + 1 < list.length; i += 2) out.set(keyText(list[i]!), list[i + 1]!);
      return out;
    },
  ),
  fn(
    'apoc.map.fromNodes(label :: STRING, prop :: STRING) :: MAP',
    'Returns a `MAP` of the given prop to the node of the given label.',
    ([label, prop], ctx) => {
      const reader = executionOf(ctx).reader;
      const out = new Map<string, CypherValue>();
      for (const id of reader.nodeIdsByLabel(valueText(label))) {
        const v = reader.nodeProperty(id, valueText(prop));
        if (v !== undefined && v !== null) out.set(keyText(v), new NodeRef(id));
      }
      return out;
    },
  ),
  fn(
    'apoc.map.groupBy(values :: LIST<ANY>, key :: STRING) :: MAP',
    'Creates a `MAP` of the `LIST<ANY>` keyed by the given property, with single values.',
    ([values, key], ctx) => {
      const out = new Map<string, CypherValue>();
      for (const v of L(values)) {
        const k = propsOf(v, ctx.accessor).get(valueText(key));
        if (k !== undefined && k !== null) out.set(keyText(k), v);
      }
      return out;
    },
  ),
  fn(
    'apoc.map.groupByMulti(values :: LIST<ANY>, key :: STRING) :: MAP',
    'Creates a `MAP` of the `LIST<ANY>` values keyed by the given property, with the `LIST<ANY>` values.',
    ([values, key], ctx) => {
      const out = new Map<string, CypherValue[]>();
      for (const v of L(values)) {
        const k = propsOf(v, ctx.accessor).get(valueText(key));
        if (k === undefined || k === null) continue;
        const list = out.get(keyText(k)) ?? [];
        list.push(v);
        out.set(keyText(k), list);
      }
      return out;
    },
  ),
  fn(
    'apoc.map.merge(map1 :: MAP, map2 :: MAP) :: MAP',
    'Merges the two given `MAP` values into one `MAP`.',
    ([a, b]) => new Map([...M(a), ...M(b)]),
  ),
  fn(
    'apoc.map.mergeList(maps :: LIST<MAP>) :: MAP',
    'Merges all `MAP` values in the given `LIST<MAP<STRING, ANY>>` into one `MAP`.',
    ([maps]) => new Map(L(maps).flatMap((m) => [...M(m)])),
  ),
  fn(
    'apoc.map.get(map :: MAP, key :: STRING, value = null :: ANY, fail = true :: BOOLEAN) :: ANY',
    'Returns a value for the given key. If the given key does not exist, or lacks a default value, this function will throw an exception.',
    ([map, key, value, fail]) => {
      const m = M(map);
      if (m.has(valueText(key))) return m.get(valueText(key))!;
      if (fail !== false && value === null) throw missingKey(valueText(key), m);
      return value!;
    },
  ),
  fn(
    'apoc.map.mget(map :: MAP, keys :: LIST<STRING>, values = [] :: LIST<ANY>, fail = true :: BOOLEAN) :: LIST<ANY>',
    'Returns a `LIST<ANY>` for the given keys. If one of the keys does not exist, or lacks a default value, this function will throw an exception.',
    ([map, keys, values, fail]) => {
      const m = M(map);
      return L(keys).map((k, i) => {
        if (m.has(valueText(k))) return m.get(valueText(k))!;
        const fallback = L(values)[i];
        if (fail !== false && fallback === undefined) throw missingKey(valueText(k), m);
        return fallback ?? null;
      });
    },
  ),
  fn(
    'apoc.map.submap(map :: MAP, keys :: LIST<STRING>, values = [] :: LIST<ANY>, fail = true :: BOOLEAN) :: MAP',
    'Returns a sub-map for the given keys. If one of the keys does not exist, or lacks a default value, this function will throw an exception.',
    ([map, keys, values, fail]) => {
      const m = M(map);
      const out = new Map<string, CypherValue>();
      L(keys).forEach((k, i) => {
        if (m.has(valueText(k))) out.set(valueText(k), m.get(valueText(k))!);
        else {
          const fallback = L(values)[i];
          if (fail !== false && fallback === undefined) throw missingKey(valueText(k), m);
          out.set(valueText(k), fallback ?? null);
        }
      });
      return out;
    },
  ),
  fn(
    'apoc.map.values(map :: MAP, keys = [] :: LIST<STRING>, addNullsForMissing = false :: BOOLEAN) :: LIST<ANY>',
    'Returns a `LIST<ANY>` indicated by the given keys (returns a null value if a given key is missing).',
    ([map, keys, nulls]) => {
      const m = M(map);
      return L(keys).flatMap((k) => (m.has(valueText(k)) ? [m.get(valueText(k))!] : nulls === true ? [null] : []));
    },
  ),
  fn(
    'apoc.map.setKey(map :: MAP, key :: STRING, value :: ANY) :: MAP',
    'Adds or updates the given entry in the `MAP`.',
    ([map, key, value]) => new Map([...M(map), [valueText(key), value!]]),
  ),
  fn(
    'apoc.map.setEntry(map :: MAP, key :: STRING, value :: ANY) :: MAP',
    'Adds or updates the given entry in the `MAP`.',
    ([map, key, value]) => new Map([...M(map), [valueText(key), value!]]),
  ),
  fn(
    'apoc.map.setLists(map :: MAP, keys :: LIST<STRING>, values :: LIST<ANY>) :: MAP',
    'Adds or updates the given keys/value pairs provided in `LIST<ANY>` format (e.g. [key1, key2],[value1, value2]) in a `MAP`.',
    ([map, keys, values]) => {
      const out = new Map(M(map));
      L(keys).forEach((k, i) => out.set(keyText(k), L(values)[i] ?? null));
      return out;
    },
  ),
  fn(
    'apoc.map.setPairs(map :: MAP, pairs :: LIST<LIST<ANY>>) :: MAP',
    'Adds or updates the given key/value pairs (e.g. [key1,value1],[key2,value2]) in a `MAP`.',
    ([map, pairs]) => pairsToMap(M(map), L(pairs)),
  ),
  fn(
    'apoc.map.setValues(map :: MAP, pairs :: LIST<ANY>) :: MAP',
    'Adds or updates the alternating key/value pairs (e.g. [key1,value1,key2,value2]) in a `MAP`.',
    ([map, pairs]) => {
      const out = new Map(M(map));
      const list = L(pairs);
      for (let i = 0; i + 1 < list.length; i += 2) out.set(keyText(list[i]!), list[i + 1]!);
      return out;
    },
  ),
  fn(
    'apoc.map.removeKey(map :: MAP, key :: STRING, config = {} :: MAP) :: MAP',
    'Removes the given key from the `MAP` (recursively if recursive is true).',
    ([map, key, config]) => removeKeys(M(map), new Set([valueText(key)]), cfgBoolean(M(config), 'recursive', false)),
  ),
  fn(
    'apoc.map.removeKeys(map :: MAP, keys :: LIST<STRING>, config = {} :: MAP) :: MAP',
    'Removes the given keys from the `MAP` (recursively if recursive is true).',
    ([map, keys, config]) => removeKeys(M(map), new Set(L(keys).map(String)), cfgBoolean(M(config), 'recursive', false)),
  ),
  fn(
    'apoc.map.clean(map :: MAP, keys :: LIST<STRING>, values :: LIST<ANY>) :: MAP',
    'Filters the keys and values contained in the given `LIST<ANY>` values.',
    ([map, keys, values]) => {
      const drop = new Set(L(keys).map(String));
      const dropValues = new Set(L(values).map(groupKey));
      return new Map([...M(map)].filter(([k, v]) => !drop.has(k) && v !== null && !dropValues.has(groupKey(v))));
    },
  ),
  fn("apoc.map.flatten(map :: MAP, delimiter = '.' :: STRING) :: MAP", 'Flattens nested items in the given `MAP`.', ([map, d]) =>
    flatten(M(map), valueText(d ?? '.')),
  ),
  fn(
    "apoc.map.unflatten(map :: MAP, delimiter = '.' :: STRING) :: MAP",
    'Unflattens items in the given `MAP` to nested items.',
    ([map, d]) => unflatten(M(map), valueText(d ?? '.')),
  ),
  fn(
    'apoc.map.sortedProperties(map :: MAP, ignoreCase = true :: BOOLEAN) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of key/value pairs, with the pairs sorted by alphabetically by key, with optional case sensitivity.',
    ([map, ignoreCase]) => {
      const norm = (k: string) => (ignoreCase === false ? k : k.toLowerCase());
      return [...M(map)].sort(([a], [b]) => (norm(a) < norm(b) ? -1 : norm(a) > norm(b) ? 1 : 0)).map(([k, v]) => [k, v]);
    },
  ),
  fn(
    'apoc.map.updateTree(tree :: MAP, key :: STRING, data :: LIST<LIST<ANY>>) :: MAP',
    'Adds the data `MAP` on each level of the nested tree, where the key-value pairs match.',
    ([tree, key, data]) => updateTree(M(tree), valueText(key), L(data)),
  ),
];
