/**
 * Property columns of a label's nodes: the fast path of scans that read only a few properties
 * of every node (`MATCH (p:Person) RETURN p.city, count(*), avg(p.age)`).
 *
 * A scan reads the nodes' property records page by page in id order and decodes only the
 * requested keys into column batches. A read transaction also keeps the finished columns in a
 * per-database cache tagged with its commit version: any later read transaction of the same
 * version gets the columns without touching SQLite or the codec. A commit makes every entry of
 * an older version useless; the next scan at the new version rebuilds (and replaces) it. The
 * cache holds at most `MAX_CACHED_VALUES` values; the least recently used entries go first.
 */
import type { CypherValue } from '../../values/types.js';
import type { NodePropertyColumns } from '../graph-store.js';
import type { Connection } from '../sqlite/connection.js';
import type { StoreContext } from '../store-context.js';
import { KeySelection, decodeSelected } from './record-select.js';

/** Upper bound on the values (cells) all cached columns of one database hold together. */
export const MAX_CACHED_VALUES = 4_000_000;

/** Rows per page of a column scan. */
const PAGE_SIZE = 4096;

const ALL_NODE_PROPS_SQL = `SELECT id, props FROM nodes WHERE id > ? ORDER BY id LIMIT ${PAGE_SIZE}`;
const LABEL_NODE_PROPS_SQL = `SELECT l.node, n.props FROM node_labels l JOIN nodes n ON n.id = l.node WHERE l.label = ? AND l.node > ? ORDER BY l.node LIMIT ${PAGE_SIZE}`;

type Column = (CypherValue | undefined)[];

/** Distinct strings/integers a column shares as one object each (beyond that, values are kept as decoded). */
const MAX_INTERNED = 4096;

/**
 * Makes equal strings and integers of one column share one object: a low-cardinality column
 * (a city, an age) then costs one pointer per node, its values stay in the CPU cache and a
 * string's hash is computed once for every grouping that reads it.
 */
class Interner {
  private readonly values = new Map<CypherValue, CypherValue>();

  intern(value: CypherValue | undefined): CypherValue | undefined {
    if (typeof value !== 'string' && typeof value !== 'bigint') return value;
    const shared = this.values.get(value);
    if (shared !== undefined) return shared;
    if (this.values.size < MAX_INTERNED) this.values.set(value, value);
    return value;
  }
}

/** The cached columns of one label (or of all nodes) at one version. */
interface CachedColumns {
  readonly version: bigint;
  readonly count: number;
  readonly columns: Map<string, Column>;
  lastUsed: number;
}

/** The column cache of one database. */
class NodeColumnCache {
  private readonly entries = new Map<string, CachedColumns>();
  private clock = 0;

  /** The entry of `scope` at `version`, if any. */
  lookup(scope: string, version: bigint): CachedColumns | undefined {
    const entry = this.entries.get(scope);
    if (entry === undefined || entry.version !== version) return undefined;
    entry.lastUsed = ++this.clock;
    return entry;
  }

  /** Adds freshly scanned columns of `scope` at `version` (merging with an entry of the same version). */
  store(scope: string, version: bigint, count: number, columns: ReadonlyMap<string, Column>): void {
    const current = this.entries.get(scope);
    const merged = new Map(current !== undefined && current.version === version && current.count === count ? current.columns : []);
    for (const [key, column] of columns) merged.set(key, column);
    if (count * merged.size > MAX_CACHED_VALUES) return;
    this.entries.set(scope, { version, count, columns: merged, lastUsed: ++this.clock });
    this.evict();
  }

  private evict(): void {
    let total = 0;
    for (const entry of this.entries.values()) total += entry.count * entry.columns.size;
    while (total > MAX_CACHED_VALUES) {
      let oldest: [string, CachedColumns] | undefined;
      for (const pair of this.entries) if (oldest === undefined || pair[1].lastUsed < oldest[1].lastUsed) oldest = pair;
      if (oldest === undefined) return;
      this.entries.delete(oldest[0]);
      total -= oldest[1].count * oldest[1].columns.size;
    }
  }
}

const caches = new WeakMap<StoreContext, NodeColumnCache>();

function cacheOf(context: StoreContext): NodeColumnCache {
  let cache = caches.get(context);
  if (cache === undefined) {
    cache = new NodeColumnCache();
    caches.set(context, cache);
  }
  return cache;
}

/**
 * The `keys` of every node carrying `label` (every node when null), ascending by id, as column
 * batches. `version` is the commit version the reader sees when its snapshot is immutable (a
 * read transaction: the columns are cached); null for a write transaction (read through, never
 * cached). `connection` is asked for on every page, so a closed reader fails instead of reading
 * another snapshot. The caller must not write while it iterates.
 */
export function* scanNodeColumns(
  connection: () => Connection,
  context: StoreContext,
  label: string | null,
  keys: readonly string[],
  version: bigint | null,
): Generator<NodePropertyColumns, void, undefined> {
  const labelId = label === null ? null : context.tokens.labels.idOf(label);
  if (labelId === undefined) return;
  const scope = label === null ? '' : `:${label}`;
  const cache = version === null ? null : cacheOf(context);
  const cached = version === null ? undefined : cache?.lookup(scope, version);
  const wanted = [...new Set(keys)];
  const missing = wanted.filter((key) => cached?.columns.has(key) !== true);
  if (cached !== undefined && missing.length === 0) {
    if (cached.count > 0) yield { count: cached.count, columns: keys.map((key) => cached.columns.get(key)!) };
    return;
  }
  const selection = new KeySelection(missing.map((key) => context.tokens.keys.idOf(key)));
  const scratch: Column = new Array<CypherValue | undefined>(missing.length);
  const interners = missing.map(() => new Interner());
  const built: Column[] | null = cache === null ? null : missing.map(() => []);
  const sql = labelId === null ? ALL_NODE_PROPS_SQL : LABEL_NODE_PROPS_SQL;
  const params = labelId === null ? [] : [labelId];
  let cursor = -1n;
  let offset = 0;
  for (;;) {
    const rows = connection()
      .raw(sql)
      .all(...params, cursor) as [bigint, Buffer | null][];
    const page: Column[] = missing.map(() => new Array<CypherValue | undefined>(rows.length));
    for (let i = 0; i < rows.length; i++) {
      decodeSelected(rows[i]![1], selection, scratch);
      for (let k = 0; k < page.length; k++) {
        const value = interners[k]!.intern(scratch[k]);
        page[k]![i] = value;
        built?.[k]!.push(value);
      }
    }
    if (rows.length > 0) {
      const byKey = new Map(missing.map((key, k) => [key, page[k]!]));
      const columns = keys.map((key) => byKey.get(key) ?? cached!.columns.get(key)!.slice(offset, offset + rows.length));
      yield { count: rows.length, columns };
      offset += rows.length;
    }
    if (rows.length < PAGE_SIZE) break;
    cursor = rows[rows.length - 1]![0];
  }
  if (cache !== null && built !== null && version !== null) {
    cache.store(scope, version, offset, new Map(missing.map((key, k) => [key, built[k]!])));
  }
}
