/**
 * Node rows of a batch of ids loaded with one packed query.
 *
 * Reading a node row costs one SQLite statement, and reading a property record as a BLOB costs
 * better-sqlite3 one native Buffer per row (about as much as the statement). A scan that reads
 * the properties of every node it returns would pay both per node. A page instead fetches the
 * rows of all its ids in one statement whose aggregates pack them: the ids, the record lengths,
 * the label-set texts, and all property records concatenated into one BLOB (`group_concat` keeps
 * BLOB bytes as they are; the database encoding is UTF-8). A row read later is a slice of that
 * BLOB.
 *
 * All aggregates of one statement see the rows in the same order, so they line up with each
 * other; the ids also come back ascending, which the page checks against its own (ascending)
 * ids. Should they ever differ, the page gives up and every row is read on its own.
 */
import type { Connection } from './sqlite/connection.js';

/** The packed columns every page query selects, for a `nodes` table aliased `n`. */
export const PACKED_NODE_COLUMNS =
  "group_concat(n.id), group_concat(coalesce(length(n.props), -1)), CAST(group_concat(coalesce(n.props, x''), x'') AS BLOB), group_concat(n.labels, ';')";

/** A node row: the label-set text and the property record (null when the node has none). */
export type NodeRow = [string, Buffer | null];

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Fewest ids worth a packed statement: below this, reading rows one by one is cheaper (a packed
 * statement and its unpacking cost about as much as eight single-row reads).
 */
export const MIN_PACKED_ROWS = 12;

type Packed = [string | null, string | null, Buffer | null, string | null];

const MINUS = 45;

/**
 * A cursor over one `group_concat` text: integers or texts separated by `separator`. Repeated
 * texts (a scan's rows mostly share one label set) come back as the same string.
 */
class PackedText {
  private position = 0;
  private last = '';
  /** True once every item was read (the text holds at least one item, maybe empty). */
  done = false;

  constructor(
    private readonly source: string,
    private readonly separator: string,
  ) {}

  /** The next item as an integer (decimal, optionally negative). */
  integer(): number {
    const source = this.source;
    let position = this.position;
    let negative = false;
    if (source.charCodeAt(position) === MINUS) {
      negative = true;
      position++;
    }
    let value = 0;
    for (let code = source.charCodeAt(position); code >= 48 && code <= 57; code = source.charCodeAt(++position)) {
      value = value * 10 + (code - 48);
    }
    this.advance(position);
    return negative ? -value : value;
  }

  /** The next item as a string. */
  text(): string {
    const source = this.source;
    const start = this.position;
    let end = source.indexOf(this.separator, start);
    if (end < 0) end = source.length;
    const last = this.last;
    let same = last.length === end - start;
    for (let i = 0; same && i < last.length; i++) same = last.charCodeAt(i) === source.charCodeAt(start + i);
    if (!same) this.last = source.slice(start, end);
    this.advance(end);
    return this.last;
  }

  private advance(position: number): void {
    if (position >= this.source.length) {
      this.done = true;
      this.position = position;
    } else this.position = position + 1;
  }
}

/** Rows of an ascending list of node ids, loaded on first use with one packed query. */
export class NodeRowPage {
  readonly first: bigint;
  readonly last: bigint;
  /** Per row: offset of its record in `blob`, or -1 when it has none. */
  private offsets: Int32Array | null = null;
  private lengths: Int32Array | null = null;
  private labels: string[] = [];
  private blob: Buffer | null = null;
  /** True when the packed rows could not be lined up with the ids (rows are then read one by one). */
  private failed = false;
  /** Index of the last row returned (scans read rows in order). */
  private cursor = 0;

  /**
   * @param ids ascending node ids (each id at most once)
   * @param sql the packed query; parameters: `params`, then the first and last id
   */
  constructor(
    private readonly ids: readonly bigint[],
    private readonly sql: string,
    private readonly params: readonly unknown[],
  ) {
    this.first = ids[0]!;
    this.last = ids[ids.length - 1]!;
    if (this.last > MAX_EXACT || ids.length < MIN_PACKED_ROWS) this.failed = true;
  }

  /**
   * The row of `id` when it is one of the page's ids: the row, or undefined when the node does
   * not exist. Null when `id` is not on the page or the page could not load packed rows.
   */
  row(connection: Connection, id: bigint): NodeRow | undefined | null {
    if (this.failed || id < this.first || id > this.last) return null;
    const index = this.indexOf(id);
    if (index < 0) return null;
    if (this.offsets === null && !this.load(connection)) return null;
    const offset = this.offsets![index]!;
    if (offset === -2) return undefined;
    const length = this.lengths![index]!;
    return [this.labels[index]!, offset === -1 ? null : this.blob!.subarray(offset, offset + length)];
  }

  private indexOf(id: bigint): number {
    const ids = this.ids;
    const cursor = this.cursor;
    if (ids[cursor] === id) return cursor;
    if (ids[cursor + 1] === id) return (this.cursor = cursor + 1);
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = ids[middle]!;
      if (value === id) return (this.cursor = middle);
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Loads the packed rows; false (and rows read one by one from then on) if they do not line up. */
  private load(connection: Connection): boolean {
    const [idText, lengthText, blob, labelText] = connection.raw(this.sql).get(...this.params, this.first, this.last) as Packed;
    const count = this.ids.length;
    const offsets = new Int32Array(count).fill(-2);
    const lengths = new Int32Array(count);
    const labels = new Array<string>(count);
    if (idText !== null) {
      // The texts are parsed in place: split() would allocate (and intern) a string per number.
      const ids = new PackedText(idText, ',');
      const rowLengths = new PackedText(lengthText!, ',');
      const rowLabels = new PackedText(labelText!, ';');
      let index = 0;
      let offset = 0;
      let previous = -1;
      let expected = count > 0 ? Number(this.ids[0]) : 0;
      while (!ids.done) {
        const id = ids.integer();
        if (rowLengths.done || rowLabels.done || !(id > previous)) return this.fail();
        previous = id;
        while (index < count && expected < id) expected = ++index < count ? Number(this.ids[index]) : 0;
        if (index === count || expected !== id) return this.fail();
        const length = rowLengths.integer();
        labels[index] = rowLabels.text();
        if (length < 0) offsets[index] = -1;
        else {
          offsets[index] = offset;
          lengths[index] = length;
          offset += length;
        }
      }
      if (!rowLengths.done || !rowLabels.done || offset !== (blob?.length ?? 0)) return this.fail();
    }
    this.offsets = offsets;
    this.lengths = lengths;
    this.labels = labels;
    this.blob = blob;
    return true;
  }

  private fail(): false {
    this.failed = true;
    return false;
  }
}
