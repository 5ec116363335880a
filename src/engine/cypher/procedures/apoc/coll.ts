/**
 * apoc.coll: list functions (set operations, sorting, statistics, pairing) and the list
 * procedures (elements, partition, split, zipToRows, pairWithOffset).
 */
import { groupKey } from '../../../values/group-key.js';
import { isNode } from '../../../values/kinds.js';
import { compare } from '../../../values/ordering.js';
import type { CypherValue } from '../../../values/types.js';
import { fn, generatedLength, illegalArgument, proc } from './define.js';
import { cfgString, listArg, mapArg, mapOf, num, propsOf } from './values.js';
import { valueText } from '../../../values/to-string.js';

type List = readonly CypherValue[];

const L = (v: CypherValue | undefined): List => listArg(v ?? null);

function distinct(list: List): CypherValue[] {
  const seen = new Set<string>();
  const out: CypherValue[] = [];
  for (const v of list) {
    const k = groupKey(v);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
}

function keySet(list: List): Set<string> {
  return new Set(list.map(groupKey));
}

function counts(list: List): Map<string, { item: CypherValue; count: number }> {
  const out = new Map<string, { item: CypherValue; count: number }>();
  for (const v of list) {
    const k = groupKey(v);
    const e = out.get(k);
    if (e) e.count++;
    else out.set(k, { item: v, count: 1 });
  }
  return out;
}

function numbers(list: List): number[] {
  return list
    .filter((v) => v !== null)
    .map((v) => {
      const n = num(v);
      if (n === null) throw illegalArgument(`Expected numeric values but got ${valueText(v)}`);
      return n;
    });
}

/** A seeded-free shuffle (Fisher-Yates over Math.random, as APOC uses Collections.shuffle). */
function shuffled(list: List): CypherValue[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** `^name` sorts ascending, `name` descending (APOC's sortMaps/sortNodes/sortMulti convention). */
function sortKey(field: string): { key: string; ascending: boolean } {
  return field.startsWith('^') ? { key: field.slice(1), ascending: true } : { key: field, ascending: false };
}

function combinations(list: List, size: number, start = 0, prefix: CypherValue[] = [], out: CypherValue[][] = []): CypherValue[][] {
  if (prefix.length === size) {
    out.push([...prefix]);
    return out;
  }
  for (let i = start; i < list.length; i++) {
    prefix.push(list[i]!);
    combinations(list, size, i + 1, prefix, out);
    prefix.pop();
  }
  return out;
}

function partition(list: List, size: number): CypherValue[][] {
  if (size <= 0) throw illegalArgument('batchSize must be greater than 0');
  const out: CypherValue[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

function pairWithOffset(list: List, offset: number): CypherValue[][] {
  return list.map((v, i) => [v, list[i + offset] ?? null]);
}

function flatten(list: List, recursive: boolean): CypherValue[] {
  const out: CypherValue[] = [];
  for (const v of list) {
    if (Array.isArray(v)) out.push(...(recursive ? flatten(v as List, true) : (v as List)));
    else out.push(v);
  }
  return out;
}

function checkedIndex(index: CypherValue, size: number, inclusiveEnd: boolean): number {
  const i = Number(index);
  if (i < 0 || i > (inclusiveEnd ? size : size - 1)) throw illegalArgument(`Index ${i} out of bounds for length ${size}`);
  return i;
}

const ELEMENT_SUFFIXES: readonly [string, string, (v: CypherValue) => boolean][] = [
  ['', 'ANY', () => true],
  ['s', 'STRING', (v) => typeof v === 'string'],
  ['i', 'INTEGER', (v) => typeof v === 'bigint'],
  ['f', 'FLOAT', (v) => typeof v === 'number'],
  ['b', 'BOOLEAN', (v) => typeof v === 'boolean'],
  ['l', 'LIST<ANY>', (v) => Array.isArray(v)],
  ['m', 'MAP', (v) => v instanceof Map],
  ['n', 'NODE', (v) => isNode(v)],
  ['r', 'RELATIONSHIP', (v) => v !== null && typeof v === 'object' && 'type' in v && 'startId' in v],
  ['p', 'PATH', (v) => v !== null && typeof v === 'object' && 'relationships' in v && 'nodes' in v],
];

const ELEMENT_OUTPUTS = [
  ...ELEMENT_SUFFIXES.flatMap(([suffix, type]) => Array.from({ length: 10 }, (_, i) => `_${i + 1}${suffix} :: ${type}`)),
  'elements :: INTEGER',
].join(', ');

function elementsRow(list: List): CypherValue[] {
  const row: CypherValue[] = [];
  for (const [, , matches] of ELEMENT_SUFFIXES)
    for (let i = 0; i < 10; i++) row.push(i < list.length && matches(list[i]!) ? list[i]! : null);
  row.push(BigInt(Math.min(list.length, 10)));
  return row;
}

/** The apoc.coll functions and procedures. */
export const collEntries = [
  fn('apoc.coll.sum(coll :: LIST<NUMBER>) :: FLOAT', 'Returns the sum of all the `NUMBER` values in the `LIST<NUMBER>`.', ([c]) =>
    c === null ? null : numbers(L(c)).reduce((a, b) => a + b, 0),
  ),
  fn(
    'apoc.coll.sumLongs(coll :: LIST<NUMBER>) :: INTEGER',
    'Returns the sum of all the `INTEGER | FLOAT` in the `LIST<INTEGER | FLOAT>`.',
    ([c]) =>
      c === null
        ? null
        : L(c).reduce<bigint>((a, v) => a + (typeof v === 'bigint' ? v : typeof v === 'number' ? BigInt(Math.trunc(v)) : 0n), 0n),
  ),
  fn('apoc.coll.avg(coll :: LIST<NUMBER>) :: FLOAT', 'Returns the average of the numbers in the `LIST<INTEGER | FLOAT>`.', ([c]) => {
    const ns = numbers(L(c));
    return c === null || ns.length === 0 ? null : ns.reduce((a, b) => a + b, 0) / ns.length;
  }),
  fn(
    'apoc.coll.stdev(list :: LIST<NUMBER>, isBiasCorrected = true :: BOOLEAN) :: NUMBER',
    'Returns sample or population standard deviation with `isBiasCorrected` true or false respectively.',
    ([c, corrected]) => {
      const ns = numbers(L(c));
      if (ns.length === 0) return null;
      const mean = ns.reduce((a, b) => a + b, 0) / ns.length;
      const squares = ns.reduce((a, b) => a + (b - mean) ** 2, 0);
      const n = corrected === false ? ns.length : ns.length - 1;
      return n <= 0 ? 0 : Math.sqrt(squares / n);
    },
  ),
  fn('apoc.coll.max(values :: LIST<ANY>) :: ANY', 'Returns the maximum of all values in the given `LIST<ANY>`.', ([c]) => {
    const vs = L(c).filter((v) => v !== null);
    return vs.length === 0 ? null : vs.reduce((a, b) => (compare(a, b) >= 0 ? a : b));
  }),
  fn('apoc.coll.min(values :: LIST<ANY>) :: ANY', 'Returns the minimum of all values in the given `LIST<ANY>`.', ([c]) => {
    const vs = L(c).filter((v) => v !== null);
    return vs.length === 0 ? null : vs.reduce((a, b) => (compare(a, b) <= 0 ? a : b));
  }),
  fn(
    'apoc.coll.contains(coll :: LIST<ANY>, value :: ANY) :: BOOLEAN',
    'Returns whether or not the given value exists in the given collection.',
    ([c, v]) => L(c).some((x) => groupKey(x) === groupKey(v!)),
  ),
  fn(
    'apoc.coll.containsSorted(coll :: LIST<ANY>, value :: ANY) :: BOOLEAN',
    'Returns whether or not the given value exists in an already sorted collection (using a binary search).',
    ([c, v]) => {
      const list = L(c);
      let lo = 0;
      let hi = list.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const cmp = compare(list[mid]!, v!);
        if (cmp === 0) return true;
        if (cmp < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return false;
    },
  ),
  fn(
    'apoc.coll.containsAll(coll1 :: LIST<ANY>, coll2 :: LIST<ANY>) :: BOOLEAN',
    'Returns whether or not all of the given values exist in the given collection.',
    ([a, b]) => {
      const keys = keySet(L(a));
      return L(b).every((v) => keys.has(groupKey(v)));
    },
  ),
  fn(
    'apoc.coll.containsAllSorted(coll1 :: LIST<ANY>, coll2 :: LIST<ANY>) :: BOOLEAN',
    'Returns whether or not all of the given values in the second `LIST<ANY>` exist in an already sorted collection (using a binary search).',
    ([a, b]) => {
      const keys = keySet(L(a));
      return L(b).every((v) => keys.has(groupKey(v)));
    },
  ),
  fn(
    'apoc.coll.containsDuplicates(coll :: LIST<ANY>) :: BOOLEAN',
    'Returns true if a collection contains duplicate elements.',
    ([c]) => keySet(L(c)).size !== L(c).length,
  ),
  fn(
    'apoc.coll.different(coll :: LIST<ANY>) :: BOOLEAN',
    'Returns true if all the values in the given `LIST<ANY>` are unique.',
    ([c]) => keySet(L(c)).size === L(c).length,
  ),
  fn('apoc.coll.duplicates(coll :: LIST<ANY>) :: LIST<ANY>', 'Returns a `LIST<ANY>` of duplicate items in the collection.', ([c]) =>
    [...counts(L(c)).values()].filter((e) => e.count > 1).map((e) => e.item),
  ),
  fn(
    'apoc.coll.duplicatesWithCount(coll :: LIST<ANY>) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of duplicate items in the collection and their count, keyed by `item` and `count`.',
    ([c]) => [...counts(L(c)).values()].filter((e) => e.count > 1).map((e) => mapOf({ item: e.item, count: BigInt(e.count) })),
  ),
  fn(
    'apoc.coll.frequencies(coll :: LIST<ANY>) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of frequencies of the items in the collection, keyed by `item` and `count`.',
    ([c]) => [...counts(L(c)).values()].map((e) => mapOf({ item: e.item, count: BigInt(e.count) })),
  ),
  fn(
    'apoc.coll.frequenciesAsMap(coll :: LIST<ANY>) :: MAP',
    'Returns a `MAP` of frequencies of the items in the collection, keyed by `item` and `count`.',
    ([c]) =>
      new Map(
        [...counts(L(c)).values()].map((e) => [
          e.item === null ? 'null' : typeof e.item === 'string' ? e.item : valueText(e.item),
          BigInt(e.count),
        ]),
      ),
  ),
  fn(
    'apoc.coll.occurrences(coll :: LIST<ANY>, item :: ANY) :: INTEGER',
    'Returns the count of the given item in the collection.',
    ([c, v]) => BigInt(L(c).filter((x) => groupKey(x) === groupKey(v!)).length),
  ),
  fn(
    'apoc.coll.indexOf(coll :: LIST<ANY>, value :: ANY) :: INTEGER',
    'Returns the index for the first occurrence of the specified value in the `LIST<ANY>`.',
    ([c, v]) => BigInt(L(c).findIndex((x) => groupKey(x) === groupKey(v!))),
  ),
  fn(
    'apoc.coll.disjunction(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the disjunct set from two `LIST<ANY>` values.',
    ([a, b]) => {
      const ka = keySet(L(a));
      const kb = keySet(L(b));
      return distinct([...L(a).filter((v) => !kb.has(groupKey(v))), ...L(b).filter((v) => !ka.has(groupKey(v)))]);
    },
  ),
  fn(
    'apoc.coll.intersection(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the distinct intersection of two `LIST<ANY>` values.',
    ([a, b]) => {
      const kb = keySet(L(b));
      return distinct(L(a).filter((v) => kb.has(groupKey(v))));
    },
  ),
  fn(
    'apoc.coll.subtract(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the first `LIST<ANY>` as a set with all the elements of the second `LIST<ANY>` removed.',
    ([a, b]) => {
      const kb = keySet(L(b));
      return distinct(L(a).filter((v) => !kb.has(groupKey(v))));
    },
  ),
  fn(
    'apoc.coll.removeAll(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the first `LIST<ANY>` with all elements also present in the second `LIST<ANY>` removed.',
    ([a, b]) => {
      const kb = keySet(L(b));
      return L(a).filter((v) => !kb.has(groupKey(v)));
    },
  ),
  fn(
    'apoc.coll.union(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the distinct union of the two given `LIST<ANY>` values.',
    ([a, b]) => distinct([...L(a), ...L(b)]),
  ),
  fn(
    'apoc.coll.unionAll(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the full union of the two given `LIST<ANY>` values (duplicates included).',
    ([a, b]) => [...L(a), ...L(b)],
  ),
  fn('apoc.coll.toSet(coll :: LIST<ANY>) :: LIST<ANY>', 'Returns a unique `LIST<ANY>` from the given `LIST<ANY>`.', ([c]) =>
    c === null ? null : distinct(L(c)),
  ),
  fn(
    'apoc.coll.isEqualCollection(coll :: LIST<ANY>, values :: LIST<ANY>) :: BOOLEAN',
    'Returns true if the two collections contain the same elements with the same cardinality in any order.',
    ([a, b]) => {
      const ca = counts(L(a));
      const cb = counts(L(b));
      return ca.size === cb.size && [...ca].every(([k, e]) => cb.get(k)?.count === e.count);
    },
  ),
  fn(
    'apoc.coll.dropDuplicateNeighbors(list :: LIST<ANY>) :: LIST<ANY>',
    'Removes duplicate consecutive objects in the `LIST<ANY>`.',
    ([c]) => L(c).filter((v, i, all) => i === 0 || groupKey(all[i - 1]!) !== groupKey(v)),
  ),
  fn(
    'apoc.coll.fill(items :: STRING, count :: INTEGER) :: LIST<ANY>',
    'Returns a `LIST<ANY>` with the given count of items.',
    ([item, count]) => Array.from({ length: generatedLength(Number(count ?? 0n), 'filled list') }, () => item!),
  ),
  fn(
    'apoc.coll.flatten(coll :: LIST<ANY>, recursive = false :: BOOLEAN) :: LIST<ANY>',
    'Flattens the given `LIST<ANY>` (to flatten nested `LIST<ANY>` values, set recursive to true).',
    ([c, r]) => (c === null ? null : flatten(L(c), r === true)),
  ),
  fn(
    'apoc.coll.insert(coll :: LIST<ANY>, index :: INTEGER, value :: ANY) :: LIST<ANY>',
    'Inserts a value into the specified index in the `LIST<ANY>`.',
    ([c, i, v]) => {
      if (c === null || i === null) return c ?? null;
      const out = [...L(c)];
      out.splice(checkedIndex(i!, out.length, true), 0, v!);
      return out;
    },
  ),
  fn(
    'apoc.coll.insertAll(coll :: LIST<ANY>, index :: INTEGER, values :: LIST<ANY>) :: LIST<ANY>',
    'Inserts all of the values into the `LIST<ANY>`, starting at the specified index.',
    ([c, i, vs]) => {
      if (c === null || i === null) return c ?? null;
      const out = [...L(c)];
      out.splice(checkedIndex(i!, out.length, true), 0, ...L(vs));
      return out;
    },
  ),
  fn(
    'apoc.coll.remove(coll :: LIST<ANY>, index :: INTEGER, length = 1 :: INTEGER) :: LIST<ANY>',
    'Removes a range of values from the `LIST<ANY>`, beginning at position index for the given length of values.',
    ([c, i, len]) => {
      if (c === null || i === null) return c ?? null;
      const out = [...L(c)];
      out.splice(checkedIndex(i!, out.length, false), Number(len ?? 1n));
      return out;
    },
  ),
  fn(
    'apoc.coll.set(coll :: LIST<ANY>, index :: INTEGER, value :: ANY) :: LIST<ANY>',
    'Sets the element at the given index to the new value.',
    ([c, i, v]) => {
      if (c === null || i === null) return c ?? null;
      const out = [...L(c)];
      out[checkedIndex(i!, out.length, false)] = v!;
      return out;
    },
  ),
  fn(
    'apoc.coll.pairs(list :: LIST<ANY>) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of adjacent elements in the `LIST<ANY>` ([1,2],[2,3],[3,null]).',
    ([c]) => (c === null ? null : pairWithOffset(L(c), 1)),
  ),
  fn(
    'apoc.coll.pairsMin(list :: LIST<ANY>) :: LIST<ANY>',
    'Returns `LIST<ANY>` values of adjacent elements in the `LIST<ANY>` ([1,2],[2,3]), skipping the final element.',
    ([c]) => (c === null ? null : pairWithOffset(L(c), 1).slice(0, -1)),
  ),
  fn(
    'apoc.coll.pairWithOffset(coll :: LIST<ANY>, offset :: INTEGER) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of pairs defined by the offset.',
    ([c, o]) => (c === null ? null : pairWithOffset(L(c), Number(o))),
  ),
  proc(
    'apoc.coll.pairWithOffset(coll :: LIST<ANY>, offset :: INTEGER) :: (value :: LIST<ANY>)',
    'READ',
    'Returns a `LIST<ANY>` of pairs defined by the offset.',
    function* ([c, o]) {
      for (const pair of pairWithOffset(L(c), Number(o))) yield [pair];
    },
  ),
  fn(
    'apoc.coll.partition(coll :: LIST<ANY>, batchSize :: INTEGER) :: LIST<ANY>',
    'Partitions the original `LIST<ANY>` into a new `LIST<ANY>` of the given batch size.',
    ([c, size]) => (c === null ? null : partition(L(c), Number(size))),
  ),
  proc(
    'apoc.coll.partition(coll :: LIST<ANY>, batchSize :: INTEGER) :: (value :: LIST<ANY>)',
    'READ',
    'Partitions the original `LIST<ANY>` into a new `LIST<ANY>` of the given batch size.',
    function* ([c, size]) {
      for (const part of partition(L(c), Number(size))) yield [part];
    },
  ),
  proc(
    'apoc.coll.split(coll :: LIST<ANY>, value :: ANY) :: (value :: LIST<ANY>)',
    'READ',
    'Splits a collection by the given value.',
    function* ([c, v]) {
      let current: CypherValue[] = [];
      for (const x of L(c)) {
        if (groupKey(x) === groupKey(v!)) {
          if (current.length > 0) yield [current];
          current = [];
        } else current.push(x);
      }
      if (current.length > 0) yield [current];
    },
  ),
  proc(
    'apoc.coll.zipToRows(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: (value :: LIST<ANY>)',
    'READ',
    'Returns the two `LIST<ANY>` values zipped together, with one row per zipped pair.',
    function* ([a, b]) {
      const lb = L(b);
      for (let i = 0; i < L(a).length; i++) yield [[L(a)[i]!, lb[i] ?? null]];
    },
  ),
  proc(
    `apoc.coll.elements(coll :: LIST<ANY>, limit = -1 :: INTEGER, offset = 0 :: INTEGER) :: (${ELEMENT_OUTPUTS})`,
    'READ',
    'Deconstructs a `LIST<ANY>` into identifiers indicating their specific type.',
    function* ([c, limit, offset]) {
      const start = Number(offset ?? 0n);
      const end = Number(limit ?? -1n) < 0 ? undefined : start + Number(limit);
      yield elementsRow(L(c).slice(start, end));
    },
  ),
  fn(
    'apoc.coll.zip(list1 :: LIST<ANY>, list2 :: LIST<ANY>) :: LIST<ANY>',
    'Returns the two given `LIST<ANY>` values zipped together as a `LIST<LIST<ANY>>`.',
    ([a, b]) => (a === null || b === null ? null : L(a).map((v, i) => [v, L(b)[i] ?? null])),
  ),
  fn('apoc.coll.runningTotal(list :: LIST<NUMBER>) :: LIST<ANY>', 'Returns an accumulative `LIST<INTEGER | FLOAT>`.', ([c]) => {
    if (c === null) return null;
    let total: bigint | number = 0n;
    return L(c).map((v) => {
      total = typeof total === 'bigint' && typeof v === 'bigint' ? total + v : Number(total) + (num(v) ?? 0);
      return total;
    });
  }),
  fn(
    'apoc.coll.combinations(coll :: LIST<ANY>, minSelect :: INTEGER, maxSelect = -1 :: INTEGER) :: LIST<ANY>',
    'Returns a collection of all combinations of `LIST<ANY>` elements between the selection size `minSelect` and `maxSelect` (default: `minSelect`).',
    ([c, min, max]) => {
      const list = L(c);
      const lo = Number(min);
      const hi = Number(max ?? -1n) < 0 ? lo : Number(max);
      if (lo < 0 || hi > list.length || lo > hi) return [];
      const out: CypherValue[][] = [];
      for (let k = lo; k <= hi; k++) combinations(list, k, 0, [], out);
      return out;
    },
  ),
  fn(
    'apoc.coll.randomItem(coll :: LIST<ANY>) :: ANY',
    'Returns a random item from the `LIST<ANY>`, or null on `LIST<NOTHING>` or `LIST<NULL>`.',
    ([c]) => (L(c).length === 0 ? null : L(c)[Math.floor(Math.random() * L(c).length)]!),
    { deterministic: false },
  ),
  fn(
    'apoc.coll.randomItems(coll :: LIST<ANY>, itemCount :: INTEGER, allowRepick = false :: BOOLEAN) :: LIST<ANY>',
    'Returns a `LIST<ANY>` of `itemCount` random items from the original `LIST<ANY>` (optionally allowing elements in the original `LIST<ANY>` to be selected more than once).',
    ([c, count, repick]) => {
      const list = L(c);
      const n = Number(count ?? 0n);
      if (repick === true)
        return list.length === 0
          ? []
          : Array.from({ length: generatedLength(n, 'list of random items') }, () => list[Math.floor(Math.random() * list.length)]!);
      return shuffled(list).slice(0, n);
    },
    { deterministic: false },
  ),
  fn(
    'apoc.coll.shuffle(coll :: LIST<ANY>) :: LIST<ANY>',
    'Returns the `LIST<ANY>` shuffled.',
    ([c]) => (c === null ? null : shuffled(L(c))),
    { deterministic: false },
  ),
  fn('apoc.coll.sort(coll :: LIST<ANY>) :: LIST<ANY>', 'Sorts the given `LIST<ANY>` into ascending order.', ([c]) =>
    c === null ? null : [...L(c)].sort(compare),
  ),
  fn(
    'apoc.coll.sortText(coll :: LIST<STRING>, conf = {} :: MAP) :: LIST<ANY>',
    'Sorts the given `LIST<STRING>` into ascending order.',
    ([c, conf]) => {
      if (c === null) return null;
      const collator = new Intl.Collator(cfgString(mapArg(conf), 'locale', 'en') ?? 'en');
      return [...L(c)].sort((a, b) => collator.compare(valueText(a), valueText(b)));
    },
  ),
  fn(
    'apoc.coll.sortMaps(list :: LIST<MAP>, prop :: STRING) :: LIST<ANY>',
    'Sorts the given `LIST<MAP<STRING, ANY>>` into descending order, based on the `MAP` property indicated by `prop`.',
    ([c, prop]) => {
      const { key, ascending } = sortKey(valueText(prop));
      return [...L(c)].sort((a, b) => (ascending ? 1 : -1) * compare(mapArg(a).get(key) ?? null, mapArg(b).get(key) ?? null));
    },
  ),
  fn(
    'apoc.coll.sortMulti(coll :: LIST<MAP>, orderFields = [] :: LIST<STRING>, limit = -1 :: INTEGER, skip = 0 :: INTEGER) :: LIST<ANY>',
    'Sorts the given `LIST<MAP<STRING, ANY>>` by the given fields. To indicate that a field should be sorted according to ascending values, prefix it with a caret (^).',
    ([c, fields, limit, skip]) => {
      const keys = L(fields).map((f) => sortKey(valueText(f)));
      const sorted = [...L(c)].sort((a, b) => {
        for (const { key, ascending } of keys) {
          const cmp = compare(mapArg(a).get(key) ?? null, mapArg(b).get(key) ?? null);
          if (cmp !== 0) return ascending ? cmp : -cmp;
        }
        return 0;
      });
      const start = Number(skip ?? 0n);
      return Number(limit ?? -1n) < 0 ? sorted.slice(start) : sorted.slice(start, start + Number(limit));
    },
  ),
  fn(
    'apoc.coll.sortNodes(coll :: LIST<NODE>, prop :: STRING) :: LIST<ANY>',
    'Sorts the given `LIST<NODE>` by the property of the nodes into descending order.',
    ([c, prop], ctx) => {
      const { key, ascending } = sortKey(valueText(prop));
      return [...L(c)].sort(
        (a, b) => (ascending ? 1 : -1) * compare(propsOf(a, ctx.accessor).get(key) ?? null, propsOf(b, ctx.accessor).get(key) ?? null),
      );
    },
  ),
];
