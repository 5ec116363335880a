/**
 * JSON for APOC: parsing into Cypher values (whole numbers become INTEGER, exactly, as Jackson
 * reads longs), writing Cypher values as APOC writes them (nodes as `{id, type: "node", labels,
 * properties}`), and the JsonPath subset APOC's `path` arguments use (`$`, `.key`, `['key']`,
 * `[n]`, `[*]`, `..key`).
 */
import { isNode, isPath, isRelationship, isList, isMap } from '../../../values/kinds.js';
import { crsName, cypherToString } from '../../../values/to-string.js';
import { CypherDuration, CypherPoint, CypherVector, type CypherValue, type EntityAccessor } from '../../../values/types.js';
import { formatDuration } from '../../../values/temporal/duration.js';
import { apocFailure } from './define.js';
import { labelsOf, propsOf } from './values.js';

class JsonReader {
  private i = 0;
  constructor(private readonly text: string) {}

  parse(): CypherValue {
    const v = this.value();
    this.ws();
    if (this.i < this.text.length) this.fail();
    return v;
  }

  private fail(): never {
    throw apocFailure(`Unexpected character at position ${this.i} of JSON text: ${this.text.slice(0, 200)}`);
  }

  private ws(): void {
    while (this.i < this.text.length && ' \t\n\r'.includes(this.text[this.i]!)) this.i++;
  }

  private value(): CypherValue {
    this.ws();
    const ch = this.text[this.i];
    if (ch === '{') return this.object();
    if (ch === '[') return this.array();
    if (ch === '"') return this.string();
    if (this.text.startsWith('true', this.i)) return ((this.i += 4), true);
    if (this.text.startsWith('false', this.i)) return ((this.i += 5), false);
    if (this.text.startsWith('null', this.i)) return ((this.i += 4), null);
    const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(this.text.slice(this.i, this.i + 400));
    if (m === null) this.fail();
    this.i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) {
      const big = BigInt(m[0]);
      return big >= -(2n ** 63n) && big < 2n ** 63n ? big : Number(m[0]);
    }
    return Number(m[0]);
  }

  private object(): CypherValue {
    this.i++;
    const map = new Map<string, CypherValue>();
    this.ws();
    if (this.text[this.i] === '}') return (this.i++, map);
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') this.fail();
      const key = this.string();
      this.ws();
      if (this.text[this.i++] !== ':') this.fail();
      map.set(key, this.value());
      this.ws();
      const next = this.text[this.i++];
      if (next === '}') return map;
      if (next !== ',') this.fail();
    }
  }

  private array(): CypherValue {
    this.i++;
    const list: CypherValue[] = [];
    this.ws();
    if (this.text[this.i] === ']') return (this.i++, list);
    for (;;) {
      list.push(this.value());
      this.ws();
      const next = this.text[this.i++];
      if (next === ']') return list;
      if (next !== ',') this.fail();
    }
  }

  private string(): string {
    const start = this.i;
    this.i++;
    let escaped = false;
    while (this.i < this.text.length) {
      const ch = this.text[this.i++];
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') return JSON.parse(this.text.slice(start, this.i)) as string;
    }
    return this.fail();
  }
}

/** Parses JSON text into Cypher values (APOC's `fromJsonMap`/`fromJsonList`/`load.json`). */
export function parseJson(text: string): CypherValue {
  return new JsonReader(text).parse();
}

/** One step of a JsonPath. */
type Step = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'deep'; key: string };

function parsePath(path: string): Step[] {
  const steps: Step[] = [];
  let rest = path.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  while (rest.length > 0) {
    let m: RegExpExecArray | null;
    if ((m = /^\.\.([A-Za-z0-9_$-]+)/.exec(rest))) steps.push({ kind: 'deep', key: m[1]! });
    else if ((m = /^\.\*/.exec(rest)) || (m = /^\[\*\]/.exec(rest))) steps.push({ kind: 'all' });
    else if ((m = /^\.?([A-Za-z_$][A-Za-z0-9_$-]*)/.exec(rest))) steps.push({ kind: 'key', key: m[1]! });
    else if ((m = /^\[\s*'([^']*)'\s*\]/.exec(rest)) || (m = /^\[\s*"([^"]*)"\s*\]/.exec(rest))) steps.push({ kind: 'key', key: m[1]! });
    else if ((m = /^\[\s*(-?\d+)\s*\]/.exec(rest))) steps.push({ kind: 'index', index: Number(m[1]) });
    else throw apocFailure(`Invalid JSON path: ${path}`);
    rest = rest.slice(m[0].length);
  }
  return steps;
}

function deepFind(v: CypherValue, key: string, out: CypherValue[]): void {
  if (isMap(v)) {
    for (const [k, x] of v) {
      if (k === key) out.push(x);
      deepFind(x, key, out);
    }
  } else if (isList(v)) for (const x of v) deepFind(x, key, out);
}

/**
 * Evaluates a JsonPath on a parsed value. A definite path (no `[*]` or `..`) yields the value
 * or null; an indefinite one yields the list of matches.
 */
export function jsonPath(value: CypherValue, path: string | null): CypherValue {
  if (path === null || path === '' || path === '$') return value;
  const steps = parsePath(path);
  let current: CypherValue[] = [value];
  let definite = true;
  for (const step of steps) {
    const next: CypherValue[] = [];
    for (const v of current) {
      if (step.kind === 'key' && isMap(v) && v.has(step.key)) next.push(v.get(step.key)!);
      else if (step.kind === 'index' && isList(v)) {
        const i = step.index < 0 ? v.length + step.index : step.index;
        if (i >= 0 && i < v.length) next.push(v[i]!);
      } else if (step.kind === 'all') {
        definite = false;
        if (Array.isArray(v)) next.push(...(v as CypherValue[]));
        else if (v instanceof Map) next.push(...v.values());
      } else if (step.kind === 'deep') {
        definite = false;
        deepFind(v, step.key, next);
      }
    }
    current = next;
  }
  return definite ? (current[0] ?? null) : current;
}

/** A Cypher value as the plain JSON structure APOC writes (entities as maps, temporals as ISO text). */
export function toJsonStructure(v: CypherValue, accessor: EntityAccessor): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') return new RawNumber(v.toString());
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map((x: CypherValue) => toJsonStructure(x, accessor));
  if (isMap(v)) return Object.fromEntries([...v].map(([k, x]) => [k, toJsonStructure(x, accessor)]));
  if (v instanceof Uint8Array) return [...v];
  if (isNode(v)) {
    const props = propsOf(v, accessor);
    const out: Record<string, unknown> = { id: String(v.id), type: 'node', labels: [...labelsOf(v, accessor)] };
    if (props.size > 0) out.properties = toJsonStructure(props, accessor);
    return out;
  }
  if (isRelationship(v)) {
    const props = propsOf(v, accessor);
    const end = (id: bigint) => ({ id: String(id), labels: [...(accessor.nodeLabels(id) ?? [])] });
    const out: Record<string, unknown> = {
      id: String(v.id),
      type: 'relationship',
      label: v.type,
      start: end(v.startId),
      end: end(v.endId),
    };
    if (props.size > 0) out.properties = toJsonStructure(props, accessor);
    return out;
  }
  if (isPath(v)) {
    const items: CypherValue[] = [];
    v.nodes.forEach((n, i) => {
      items.push(n);
      const r = v.relationships[i];
      if (r) items.push(r);
    });
    return items.map((x) => toJsonStructure(x, accessor));
  }
  if (v instanceof CypherDuration) return formatDuration(v);
  if (v instanceof CypherPoint) {
    const out: Record<string, unknown> = { crs: crsName(v.srid), x: v.x, y: v.y };
    if (v.z !== null) out.z = v.z;
    return out;
  }
  if (v instanceof CypherVector) return v.toNumbers();
  return cypherToString(v);
}

/** A JSON number written verbatim (keeps 64-bit integers exact). */
class RawNumber {
  constructor(readonly text: string) {}
}

/** Writes the structure as compact JSON (integers exact). */
export function stringifyJson(structure: unknown, sortKeys = false): string {
  if (structure instanceof RawNumber) return structure.text;
  if (structure === null || structure === undefined) return 'null';
  if (Array.isArray(structure)) return `[${structure.map((x) => stringifyJson(x, sortKeys)).join(',')}]`;
  if (typeof structure === 'object') {
    const entries = Object.entries(structure as Record<string, unknown>);
    if (sortKeys) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${stringifyJson(x, sortKeys)}`).join(',')}}`;
  }
  return JSON.stringify(structure);
}

/** A Cypher value as APOC's JSON text. */
export function toJsonText(v: CypherValue, accessor: EntityAccessor, sortKeys = false): string {
  return stringifyJson(toJsonStructure(v, accessor), sortKeys);
}
