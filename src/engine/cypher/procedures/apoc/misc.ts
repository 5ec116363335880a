/**
 * Small namespaces: apoc.stats.degrees, apoc.diff.nodes, apoc.data.url, apoc.hashing
 * (fingerprints), apoc.spatial (distance sorting; geocoding needs an external service and says so)
 * and apoc.search (property search over labels).
 */
import { createHash } from 'node:crypto';
import { groupKey } from '../../../values/group-key.js';
import { isNode, isPath, isRelationship, isMap } from '../../../values/kinds.js';
import { equivalent } from '../../../values/equality.js';
import { compare } from '../../../values/ordering.js';
import { NodeRef, RelationshipRef, type CypherMap, type CypherValue, type EntityAccessor } from '../../../values/types.js';
import { userRegex } from '../../functions/user-regex.js';
import { PAUSE } from '../../runtime/row.js';
import { apocFailure, executionOf, fn, illegalArgument, proc, type ApocContext } from './define.js';
import { parseRelPatterns } from './entities.js';
import { parseJson } from './json.js';
import { labelsOf, listArg, mapArg, mapOf, num, propsOf } from './values.js';
import { valueText } from '../../../values/to-string.js';

/** A canonical text of a value for hashing (maps and labels sorted; excluded keys left out). */
function canonical(v: CypherValue, accessor: EntityAccessor, exclude: ReadonlySet<string>): string {
  if (isNode(v)) {
    const props = [...propsOf(v, accessor)].filter(([k]) => !exclude.has(k)).sort(([a], [b]) => (a < b ? -1 : 1));
    return `N(${[...labelsOf(v, accessor)].sort().join(':')}|${props.map(([k, x]) => `${k}=${canonical(x, accessor, exclude)}`).join(',')})`;
  }
  if (isRelationship(v)) {
    const props = [...propsOf(v, accessor)].filter(([k]) => !exclude.has(k)).sort(([a], [b]) => (a < b ? -1 : 1));
    return `R(${v.type}|${canonical(new NodeRef(v.startId), accessor, exclude)}|${canonical(new NodeRef(v.endId), accessor, exclude)}|${props.map(([k, x]) => `${k}=${canonical(x, accessor, exclude)}`).join(',')})`;
  }
  if (isPath(v))
    return `P(${v.nodes.map((n) => canonical(n, accessor, exclude)).join(',')}|${v.relationships.map((r) => canonical(r, accessor, exclude)).join(',')})`;
  if (isMap(v))
    return `{${[...v]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, x]) => `${k}:${canonical(x, accessor, exclude)}`)
      .join(',')}}`;
  if (Array.isArray(v)) return `[${v.map((x: CypherValue) => canonical(x, accessor, exclude)).join(',')}]`;
  return groupKey(v);
}

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex').toUpperCase();
}

function percentileOf(sorted: readonly number[], p: number): bigint {
  if (sorted.length === 0) return 0n;
  return BigInt(sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1))]!);
}

function haversineKm(a: CypherMap, b: CypherMap): number {
  const lat1 = num(a.get('latitude') ?? null);
  const lon1 = num(a.get('longitude') ?? null);
  const lat2 = num(b.get('latitude') ?? null);
  const lon2 = num(b.get('longitude') ?? null);
  if (lat1 === null || lon1 === null || lat2 === null || lon2 === null)
    throw illegalArgument('Every node of the path needs latitude and longitude properties');
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

const NO_GEOCODER =
  'Geocoding needs an external geocoding service (OpenStreetMap, Google or a configured provider), and this server makes no requests to outside services';

/** `{Label: 'prop'}`, `{Label: ['a', 'b']}` or its JSON text, as label/property pairs. */
function labelProperties(arg: CypherValue): [string, string][] {
  const map = typeof arg === 'string' ? mapArg(parseJson(arg)) : mapArg(arg);
  return [...map].flatMap(([label, props]) => listArg(props).map((p) => [label, valueText(p)] as [string, string]));
}

function matches(operator: string, value: CypherValue, target: CypherValue): boolean {
  if (value === null || value === undefined) return false;
  switch (operator.trim().toUpperCase()) {
    case 'EXACT':
    case '=':
      return equivalent(value, target);
    case '<>':
      return !equivalent(value, target);
    case 'CONTAINS':
      return typeof value === 'string' && value.includes(valueText(target));
    case 'STARTS WITH':
      return typeof value === 'string' && value.startsWith(valueText(target));
    case 'ENDS WITH':
      return typeof value === 'string' && value.endsWith(valueText(target));
    case '=~':
      return typeof value === 'string' && userRegex(valueText(target), 'full').test(value);
    case '<':
      return compare(value, target) < 0;
    case '<=':
      return compare(value, target) <= 0;
    case '>':
      return compare(value, target) > 0;
    case '>=':
      return compare(value, target) >= 0;
    default:
      throw illegalArgument(`Unsupported search operator: ${operator}`);
  }
}

function* search(
  c: ApocContext,
  arg: CypherValue,
  operator: CypherValue,
  value: CypherValue,
  distinct: boolean,
): Generator<{ id: bigint; label: string; key: string } | typeof PAUSE> {
  const seen = new Set<bigint>();
  for (const [label, key] of labelProperties(arg)) {
    for (const id of c.reader.nodeIdsByLabel(label)) {
      if (c.exec.scheduler.tick()) yield PAUSE;
      if (!matches(valueText(operator), c.reader.nodeProperty(id, key) ?? null, value)) continue;
      if (distinct && seen.has(id)) continue;
      seen.add(id);
      yield { id, label, key };
    }
  }
}

const SEARCH_PARAMS = 'labelPropertyMap :: ANY, operator :: STRING, value :: ANY';
const REDUCED = '(id :: INTEGER, labels :: LIST<STRING>, values :: MAP)';

function reducedRow(c: ApocContext, hit: { id: bigint; key: string }): CypherValue[] {
  return [hit.id, [...(c.reader.nodeLabels(hit.id) ?? [])], mapOf({ [hit.key]: c.reader.nodeProperty(hit.id, hit.key) ?? null })];
}

/** The small namespaces' entries. */
export const miscEntries = [
  proc(
    "apoc.stats.degrees(relTypes = '' :: STRING) :: (type :: STRING, direction :: STRING, total :: INTEGER, p50 :: INTEGER, p75 :: INTEGER, p90 :: INTEGER, p95 :: INTEGER, p99 :: INTEGER, p999 :: INTEGER, max :: INTEGER, min :: INTEGER, mean :: FLOAT)",
    'READ',
    'Returns the percentile groupings of the degrees on the `NODE` values connected by the given `RELATIONSHIP` types.',
    function* ([types], c) {
      const patterns = types === '' || types === null ? [{ type: null, direction: 'both' as const }] : parseRelPatterns(types!);
      for (const p of patterns) {
        const degrees: number[] = [];
        for (const id of c.reader.allNodeIds()) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          degrees.push(c.reader.degree(id, p.direction, p.type === null ? undefined : [p.type]));
        }
        degrees.sort((a, b) => a - b);
        const total = degrees.reduce((a, b) => a + b, 0);
        const direction = p.direction === 'out' ? 'OUTGOING' : p.direction === 'in' ? 'INCOMING' : 'BOTH';
        yield [
          p.type,
          direction,
          BigInt(total),
          ...[0.5, 0.75, 0.9, 0.95, 0.99, 0.999].map((q) => percentileOf(degrees, q)),
          BigInt(degrees[degrees.length - 1] ?? 0),
          BigInt(degrees[0] ?? 0),
          degrees.length === 0 ? 0 : total / degrees.length,
        ];
      }
    },
  ),
  fn(
    'apoc.diff.nodes(leftNode :: NODE, rightNode :: NODE) :: MAP',
    'Returns a `MAP` detailing the differences between the two given `NODE` values.',
    ([left, right], ctx) => {
      if (left === null || right === null) return null;
      const l = propsOf(left!, ctx.accessor);
      const r = propsOf(right!, ctx.accessor);
      const different = new Map<string, CypherValue>();
      const inCommon = new Map<string, CypherValue>();
      for (const [k, v] of l) {
        if (!r.has(k)) continue;
        if (equivalent(v, r.get(k)!)) inCommon.set(k, v);
        else different.set(k, mapOf({ left: v, right: r.get(k)! }));
      }
      return mapOf({
        leftOnly: new Map([...l].filter(([k]) => !r.has(k))),
        rightOnly: new Map([...r].filter(([k]) => !l.has(k))),
        inCommon,
        different,
      });
    },
  ),
  fn('apoc.data.url(url :: STRING) :: MAP', 'Turns a URL into a `MAP`.', ([url]) => {
    if (url === null) return null;
    let u: URL;
    try {
      u = new URL(valueText(url));
    } catch {
      throw illegalArgument(`Invalid URL: ${valueText(url)}`);
    }
    return mapOf({
      protocol: u.protocol.replace(/:$/, ''),
      user: u.username === '' ? null : u.password === '' ? u.username : `${u.username}:${u.password}`,
      host: u.hostname,
      port: u.port === '' ? null : BigInt(u.port),
      path: u.pathname,
      file: `${u.pathname}${u.search}`,
      query: u.search === '' ? null : u.search.slice(1),
      anchor: u.hash === '' ? null : u.hash.slice(1),
    });
  }),
  fn(
    'apoc.hashing.fingerprint(object :: ANY, excludedPropertyKeys = [] :: LIST<STRING>) :: STRING',
    'Calculates a MD5 checksum over a `NODE` or `RELATIONSHIP` (identical entities share the same checksum).',
    ([object, excluded], ctx) => md5(canonical(object!, ctx.accessor, new Set(listArg(excluded).map(String)))),
  ),
  fn(
    'apoc.hashing.fingerprinting(object :: ANY, config = {} :: MAP) :: STRING',
    'Calculates a MD5 checksum over a `NODE` or `RELATIONSHIP` (identical entities share the same checksum), with the properties in `config` `allNodesDisallowList`/`allRelsDisallowList` left out.',
    ([object, config], ctx) => {
      const cfg = mapArg(config);
      const excluded = [...listArg(cfg.get('allNodesDisallowList') ?? null), ...listArg(cfg.get('allRelsDisallowList') ?? null)].map(
        String,
      );
      return md5(canonical(object!, ctx.accessor, new Set(excluded)));
    },
  ),
  fn(
    'apoc.hashing.fingerprintGraph(propertyExcludes = [] :: LIST<STRING>) :: STRING',
    'Calculates a MD5 checksum over the full graph. This function uses in-memory data structures.',
    ([excluded], ctx) => {
      const exec = executionOf(ctx);
      const exclude = new Set(listArg(excluded).map(String));
      const nodes = [...exec.reader.allNodeIds()].map((id) => canonical(new NodeRef(id), exec.accessor, exclude)).sort();
      const rels = [...exec.reader.allRelationships()]
        .map((r) => canonical(new RelationshipRef(r.id, r.type, r.startId, r.endId), exec.accessor, exclude))
        .sort();
      return md5(`${nodes.join('\n')}\n--\n${rels.join('\n')}`);
    },
  ),
  proc(
    'apoc.spatial.geocode(location :: STRING, maxResults = 100 :: INTEGER, quotaException = false :: BOOLEAN, config = {} :: MAP) :: (location :: MAP, data :: MAP, latitude :: FLOAT, longitude :: FLOAT, description :: STRING)',
    'READ',
    'Returns the geographic location (latitude, longitude, and description) of the given address using a geocoding service (default: OpenStreetMap).',
    function* () {
      throw apocFailure(NO_GEOCODER);
    },
  ),
  proc(
    'apoc.spatial.geocodeOnce(location :: STRING, config = {} :: MAP) :: (location :: MAP, data :: MAP, latitude :: FLOAT, longitude :: FLOAT, description :: STRING)',
    'READ',
    'Returns the geographic location (latitude, longitude, and description) of the given address using a geocoding service (default: OpenStreetMap).',
    function* () {
      throw apocFailure(NO_GEOCODER);
    },
  ),
  proc(
    'apoc.spatial.reverseGeocode(latitude :: FLOAT, longitude :: FLOAT, quotaException = false :: BOOLEAN, config = {} :: MAP) :: (location :: MAP, data :: MAP, latitude :: FLOAT, longitude :: FLOAT, description :: STRING)',
    'READ',
    'Returns a textual address from the given geographic location (latitude, longitude) using a geocoding service (default: OpenStreetMap).',
    function* () {
      throw apocFailure(NO_GEOCODER);
    },
  ),
  proc(
    'apoc.spatial.sortByDistance(paths :: LIST<PATH>) :: (path :: PATH, distance :: FLOAT)',
    'READ',
    'Sorts the given collection of `PATH` values by the sum of their distance based on the latitude/longitude values in the `NODE` values.',
    function* ([paths], c) {
      const rows = listArg(paths)
        .filter((p) => isPath(p))
        .map((p) => {
          const nodes = (p as { nodes: readonly CypherValue[] }).nodes.map((n) => propsOf(n, c.exec.accessor));
          let distance = 0;
          for (let i = 1; i < nodes.length; i++) distance += haversineKm(nodes[i - 1]!, nodes[i]!);
          return [p, distance] as [CypherValue, number];
        })
        .sort((a, b) => a[1] - b[1]);
      yield* rows;
    },
  ),
  proc(
    `apoc.search.node(${SEARCH_PARAMS}) :: (node :: NODE)`,
    'READ',
    'Returns all the distinct `NODE` values found after a parallel search over multiple indexes.',
    function* ([arg, op, value], c) {
      for (const hit of search(c, arg!, op!, value!, true)) yield hit === PAUSE ? hit : [new NodeRef(hit.id)];
    },
  ),
  proc(
    `apoc.search.nodeAll(${SEARCH_PARAMS}) :: (node :: NODE)`,
    'READ',
    'Returns all the `NODE` values found after a parallel search over multiple indexes.',
    function* ([arg, op, value], c) {
      for (const hit of search(c, arg!, op!, value!, false)) yield hit === PAUSE ? hit : [new NodeRef(hit.id)];
    },
  ),
  proc(
    `apoc.search.nodeReduced(${SEARCH_PARAMS}) :: ${REDUCED}`,
    'READ',
    'Returns a reduced representation of the distinct `NODE` values found after a parallel search over multiple indexes.',
    function* ([arg, op, value], c) {
      for (const hit of search(c, arg!, op!, value!, true)) yield hit === PAUSE ? hit : reducedRow(c, hit);
    },
  ),
  proc(
    `apoc.search.nodeAllReduced(${SEARCH_PARAMS}) :: ${REDUCED}`,
    'READ',
    'Returns a reduced representation of the `NODE` values found after a parallel search over multiple indexes.',
    function* ([arg, op, value], c) {
      for (const hit of search(c, arg!, op!, value!, false)) yield hit === PAUSE ? hit : reducedRow(c, hit);
    },
  ),
  proc(
    `apoc.search.multiSearchReduced(${SEARCH_PARAMS}) :: ${REDUCED}`,
    'READ',
    'Returns a reduced representation of the `NODE` values found after a parallel search over multiple indexes.',
    function* ([arg, op, value], c) {
      for (const hit of search(c, arg!, op!, value!, false)) yield hit === PAUSE ? hit : reducedRow(c, hit);
    },
  ),
];
