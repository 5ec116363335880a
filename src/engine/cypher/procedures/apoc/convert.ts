/**
 * apoc.convert (JSON in and out, type conversions, paths to trees), apoc.json.path and
 * apoc.paths.toJsonTree.
 */
import { isList, isNode, isPath, isRelationship } from '../../../values/kinds.js';
import type { CypherMap, CypherValue, EntityAccessor } from '../../../values/types.js';
import { fn, illegalArgument, proc } from './define.js';
import { jsonPath, parseJson, toJsonStructure, stringifyJson, toJsonText } from './json.js';
import { labelsOf, listArg, mapArg, propsOf } from './values.js';
import { groupKey } from '../../../values/group-key.js';
import { valueText } from '../../../values/to-string.js';

function parseAt(text: CypherValue, path: CypherValue): CypherValue {
  if (text === null) return null;
  return jsonPath(parseJson(valueText(text)), typeof path === 'string' ? path : null);
}

function expectMap(v: CypherValue): CypherValue {
  if (v !== null && !(v instanceof Map)) throw illegalArgument(`Cannot convert ${valueText(v)} to a map`);
  return v;
}

function sortKeys(v: unknown, ignoreCase: boolean): unknown {
  if (Array.isArray(v)) return v.map((x) => sortKeys(x, ignoreCase));
  if (v !== null && typeof v === 'object' && v.constructor === Object) {
    const key = (k: string) => (ignoreCase ? k.toLowerCase() : k);
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>)
        .sort(([a], [b]) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
        .map(([k, x]) => [k, sortKeys(x, ignoreCase)]),
    );
  }
  return v;
}

/** Builds APOC's nested tree of maps from paths (toTree / toJsonTree). */
function pathsToTree(
  paths: readonly CypherValue[],
  lowerCaseRels: boolean,
  config: CypherMap,
  accessor: EntityAccessor,
): Map<string, CypherValue>[] {
  const nodeFilter = mapArg(config.get('nodes') ?? null);
  const relFilter = mapArg(config.get('rels') ?? null);
  const maps = new Map<bigint, Map<string, CypherValue>>();
  const childKeys = new Map<bigint, Set<string>>();
  const hasParent = new Set<bigint>();
  const roots: bigint[] = [];
  const filtered = (props: CypherMap, keys: CypherValue | undefined): [string, CypherValue][] => {
    const wanted = keys === undefined ? null : listArg(keys).map(String);
    return [...props].filter(([k]) => wanted === null || (wanted[0]?.startsWith('-') ? !wanted.includes(`-${k}`) : wanted.includes(k)));
  };
  const nodeMap = (n: CypherValue & { id: bigint }): Map<string, CypherValue> => {
    let m = maps.get(n.id);
    if (!m) {
      const labels = labelsOf(n, accessor);
      m = new Map<string, CypherValue>([
        ['_type', labels[0] ?? null],
        ['_id', n.id],
        ['_elementId', accessor.nodeElementId(n.id)],
      ]);
      for (const [k, v] of filtered(propsOf(n, accessor), nodeFilter.get(labels[0] ?? ''))) m.set(k, v);
      maps.set(n.id, m);
    }
    return m;
  };
  for (const p of paths) {
    if (!isPath(p)) continue;
    if (p.nodes[0] && !roots.includes(p.nodes[0].id)) roots.push(p.nodes[0].id);
    p.relationships.forEach((r, i) => {
      const from = p.nodes[i]!;
      const to = p.nodes[i + 1]!;
      const parent = nodeMap(from);
      const child = nodeMap(to);
      hasParent.add(to.id);
      const key = lowerCaseRels ? r.type.toLowerCase() : r.type;
      const seen = childKeys.get(from.id) ?? new Set<string>();
      childKeys.set(from.id, seen);
      const marker = `${key}\u0000${to.id}\u0000${r.id}`;
      if (seen.has(marker)) return;
      seen.add(marker);
      const entry = new Map(child);
      for (const [k, v] of filtered(propsOf(r, accessor), relFilter.get(r.type))) entry.set(`${key}.${k}`, v);
      entry.set(`${key}._id`, r.id);
      entry.set(`${key}._elementId`, accessor.relationshipElementId(r.id));
      const list = (parent.get(key) as CypherValue[] | undefined) ?? [];
      parent.set(key, [...list, entry]);
    });
  }
  return roots
    .filter((id) => !hasParent.has(id) || roots.length === 1)
    .map((id) => maps.get(id) ?? new Map<string, CypherValue>([['_id', id]]));
}

/** The apoc.convert, apoc.json and apoc.paths entries. */
export const convertEntries = [
  fn('apoc.convert.toJson(value :: ANY) :: STRING', 'Serializes the given JSON value.', ([v], ctx) => toJsonText(v!, ctx.accessor)),
  fn(
    'apoc.convert.toSortedJsonMap(value :: ANY, ignoreCase = true :: BOOLEAN) :: STRING',
    'Converts a serialized JSON object from the property of a given `NODE` into a Cypher `MAP`.',
    ([v, ignoreCase], ctx) => stringifyJson(sortKeys(toJsonStructure(v!, ctx.accessor), ignoreCase !== false)),
  ),
  fn(
    "apoc.convert.fromJsonMap(map :: STRING, path = '' :: STRING, pathOptions = null :: LIST<STRING>) :: MAP",
    'Converts the given JSON map into a Cypher `MAP`.',
    ([text, path]) => expectMap(parseAt(text!, path!)),
  ),
  fn(
    "apoc.convert.fromJsonList(list :: STRING, path = '' :: STRING, pathOptions = null :: LIST<STRING>) :: LIST<ANY>",
    'Converts the given JSON list into a Cypher `LIST<STRING>`.',
    ([text, path]) => {
      const v = parseAt(text!, path!);
      return v === null || Array.isArray(v) ? v : [v];
    },
  ),
  fn(
    "apoc.json.path(json :: STRING, path = '$' :: STRING, pathOptions = null :: LIST<STRING>) :: ANY",
    'Returns the given JSON path.',
    ([text, path]) => parseAt(text!, path!),
  ),
  fn(
    "apoc.convert.getJsonProperty(node :: ANY, key :: STRING, path = '' :: STRING, pathOptions = null :: LIST<STRING>) :: ANY",
    'Converts a serialized JSON object from the property of the given `NODE` into the equivalent Cypher structure (e.g. `MAP`, `LIST<ANY>`).',
    ([node, key, path], ctx) => (node === null ? null : parseAt(propsOf(node!, ctx.accessor).get(valueText(key)) ?? null, path!)),
  ),
  fn(
    "apoc.convert.getJsonPropertyMap(node :: ANY, key :: STRING, path = '' :: STRING, pathOptions = null :: LIST<STRING>) :: MAP",
    'Converts a serialized JSON object from the property of the given `NODE` into a Cypher `MAP`.',
    ([node, key, path], ctx) =>
      node === null ? null : expectMap(parseAt(propsOf(node!, ctx.accessor).get(valueText(key)) ?? null, path!)),
  ),
  proc(
    'apoc.convert.setJsonProperty(node :: NODE, key :: STRING, value :: ANY) :: VOID',
    'WRITE',
    'Serializes the given JSON object and sets it as a property on the given `NODE`.',
    function* ([node, key, value], c) {
      if (!isNode(node!)) throw illegalArgument('Expected a node');
      c.writer().setNodeProperty(node.id, valueText(key), toJsonText(value!, c.exec.accessor));
    },
  ),
  fn('apoc.convert.toList(value :: ANY) :: LIST<ANY>', 'Converts the given value into a `LIST<ANY>`.', ([v = null]) => {
    if (v === null) return null;
    if (isList(v)) return v;
    if (isPath(v)) return v.nodes.flatMap((n, i) => (v.relationships[i] ? [n, v.relationships[i]] : [n]));
    return [v];
  }),
  fn('apoc.convert.toMap(map :: ANY) :: MAP', 'Converts the given value into a `MAP`.', ([v = null], ctx) => {
    if (v === null) return null;
    if (v instanceof Map) return v;
    if (isNode(v) || isRelationship(v)) return propsOf(v, ctx.accessor);
    throw illegalArgument(`Cannot convert ${valueText(v)} to a map`);
  }),
  fn(
    'apoc.convert.toSet(list :: ANY) :: LIST<ANY>',
    'Converts the given value into a set represented in Cypher as a `LIST<ANY>`.',
    ([v]) => {
      if (v === null) return null;
      const seen = new Set<string>();
      return listArg(v).filter((x) => !seen.has(groupKey(x)) && (seen.add(groupKey(x)), true));
    },
  ),
  fn('apoc.convert.toNode(node :: ANY) :: NODE', 'Converts the given value into a `NODE`.', ([v]) => (isNode(v!) ? v : null)),
  fn('apoc.convert.toNodeList(list :: ANY) :: LIST<ANY>', 'Converts the given value into a `LIST<NODE>`.', ([v]) =>
    v === null ? null : listArg(v).filter((x) => isNode(x)),
  ),
  fn('apoc.convert.toRelationship(rel :: ANY) :: RELATIONSHIP', 'Converts the given value into a `RELATIONSHIP`.', ([v]) =>
    isRelationship(v!) ? v : null,
  ),
  fn('apoc.convert.toRelationshipList(relList :: ANY) :: LIST<ANY>', 'Converts the given value into a `LIST<RELATIONSHIP>`.', ([v]) =>
    v === null ? null : listArg(v).filter((x) => isRelationship(x)),
  ),
  proc(
    'apoc.convert.toTree(paths :: LIST<PATH>, lowerCaseRels = true :: BOOLEAN, config = {} :: MAP) :: (value :: MAP)',
    'READ',
    'Returns a stream of `MAP` values, representing the given `PATH` values as a tree with at least one root.',
    function* ([paths, lower, config], c) {
      for (const tree of pathsToTree(listArg(paths), lower !== false, mapArg(config), c.exec.accessor)) yield [tree];
    },
  ),
  fn(
    'apoc.paths.toJsonTree(paths :: LIST<PATH>, lowerCaseRels = true :: BOOLEAN, config = {} :: MAP) :: MAP',
    'Creates a stream of nested documents representing the graph as a tree by traversing outgoing relationships.',
    ([paths, lower, config], ctx) => pathsToTree(listArg(paths), lower !== false, mapArg(config), ctx.accessor)[0] ?? new Map(),
  ),
];
