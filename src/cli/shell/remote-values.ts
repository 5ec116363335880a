/**
 * Conversion between neo4j-driver values (with `useBigInt`) and the engine's Cypher values, so
 * the shell renders remote results exactly like embedded ones.
 */
import {
  epochDayOf,
  isList,
  isMap,
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  Node,
  Path,
  Relationship,
  type CypherValue,
} from '../../engine/index.js';

/** The parts of the neo4j-driver module the shell uses. */
export interface DriverModule {
  driver(url: string, auth: unknown, config?: Record<string, unknown>): DriverLike;
  auth: { basic(user: string, password: string): unknown };
  types: Record<string, new (...args: never[]) => unknown>;
  isInt?(value: unknown): boolean;
}

/** Minimal driver surface. */
export interface DriverLike {
  session(config: { database?: string }): DriverSession;
  verifyConnectivity(): Promise<unknown>;
  close(): Promise<void>;
}

/** Minimal session/transaction surface. */
export interface DriverSession {
  run(query: string, parameters?: Record<string, unknown>, config?: { metadata?: Record<string, unknown> }): DriverRunResult;
  beginTransaction(config?: { metadata?: Record<string, unknown> }): DriverTransaction;
  close(): Promise<void>;
}

/** Minimal explicit transaction surface. */
export interface DriverTransaction {
  run(query: string, parameters?: Record<string, unknown>): DriverRunResult;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

/** One record of a driver result. */
export interface DriverRecord {
  keys: string[];
  get(i: number): unknown;
}

/**
 * What `run` returns: awaited, the whole result; iterated, its records as they arrive (the
 * driver pauses the server's stream while records wait unread).
 */
export interface DriverRunResult extends PromiseLike<DriverResult>, AsyncIterable<DriverRecord> {
  keys(): Promise<string[]>;
  summary(): Promise<DriverSummary>;
}

/** Minimal result surface. */
export interface DriverResult {
  records: DriverRecord[];
  summary: DriverSummary;
}

/** Minimal result summary surface. */
export interface DriverSummary {
  counters: { updates(): Record<string, number>; systemUpdates?(): number; containsUpdates(): boolean };
  resultAvailableAfter: unknown;
  resultConsumedAfter: unknown;
  queryType?: string;
  notifications?: { code: string; title: string; description: string; severity: string }[];
  database?: { name?: string | null };
}

function num(v: unknown): number {
  return typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : Number(String(v));
}

function big(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  const text = String(v);
  return /^-?\d+$/.test(text) ? BigInt(text) : BigInt(Math.trunc(num(v)));
}

type Fields = Record<string, unknown>;

function nanoOfDay(t: Fields): number {
  return ((num(t.hour) * 60 + num(t.minute)) * 60 + num(t.second)) * 1e9 + num(t.nanosecond);
}

/** Converts a value received from neo4j-driver. */
export function fromDriver(v: unknown, types: DriverModule['types']): CypherValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean' || typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number') return v;
  if (Array.isArray(v)) return v.map((x) => fromDriver(x, types));
  if (v instanceof Uint8Array) return v;
  const is = (name: string) => types[name] !== undefined && v instanceof types[name];
  const f = v as Fields;
  if (is('Integer')) return BigInt((v as { toString(): string }).toString());
  if (is('Node')) {
    return new Node(big(f.identity), String(f.elementId), f.labels as string[], mapOf(f.properties as Fields, types));
  }
  if (is('Relationship')) {
    return new Relationship(
      big(f.identity),
      String(f.elementId),
      String(f.type),
      big(f.start),
      big(f.end),
      String(f.startNodeElementId),
      String(f.endNodeElementId),
      mapOf(f.properties as Fields, types),
    );
  }
  if (is('Path')) {
    const segments = f.segments as Fields[];
    const nodes = [fromDriver(f.start, types) as Node, ...segments.map((s) => fromDriver(s.end, types) as Node)];
    return new Path(
      nodes,
      segments.map((s) => fromDriver(s.relationship, types) as Relationship),
    );
  }
  if (is('Date')) return new CypherDate(epochDayOf(num(f.year), num(f.month), num(f.day)));
  if (is('LocalTime')) return new LocalTime(nanoOfDay(f));
  if (is('Time')) return new CypherTime(nanoOfDay(f), num(f.timeZoneOffsetSeconds));
  if (is('LocalDateTime') || is('DateTime')) {
    const localSecond = BigInt(epochDayOf(num(f.year), num(f.month), num(f.day))) * 86400n + BigInt(Math.floor(nanoOfDay(f) / 1e9));
    if (is('LocalDateTime')) return new LocalDateTime(localSecond, num(f.nanosecond));
    const offset = num(f.timeZoneOffsetSeconds ?? 0);
    return new CypherDateTime(localSecond - BigInt(offset), num(f.nanosecond), offset, (f.timeZoneId as string | null | undefined) ?? null);
  }
  if (is('Duration')) return new CypherDuration(num(f.months), num(f.days), big(f.seconds), num(f.nanoseconds));
  if (is('Point')) return new CypherPoint(num(f.srid), num(f.x), num(f.y), f.z === undefined || f.z === null ? null : num(f.z));
  return mapOf(f, types);
}

function mapOf(object: Fields, types: DriverModule['types']): Map<string, CypherValue> {
  return new Map(Object.entries(object).map(([k, x]) => [k, fromDriver(x, types)]));
}

/** Converts a shell parameter for neo4j-driver (temporal values and points as driver types). */
export function toDriver(v: CypherValue, types: DriverModule['types']): unknown {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array) return v;
  if (isList(v)) return v.map((x) => toDriver(x, types));
  if (isMap(v)) return Object.fromEntries([...v].map(([k, x]) => [k, toDriver(x, types)]));
  const make = (name: string, ...args: unknown[]) => new (types[name] as unknown as new (...a: unknown[]) => unknown)(...args);
  if (v instanceof CypherDuration) return make('Duration', v.months, v.days, v.seconds, v.nanoseconds);
  if (v instanceof CypherPoint) return v.z === null ? make('Point', v.srid, v.x, v.y) : make('Point', v.srid, v.x, v.y, v.z);
  const clock = (nano: number) => [Math.floor(nano / 3.6e12), Math.floor(nano / 6e10) % 60, Math.floor(nano / 1e9) % 60, nano % 1e9];
  const civil = (epochDay: number) => {
    const d = new Date(epochDay * 86400000);
    return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()];
  };
  if (v instanceof CypherDate) return make('Date', ...civil(v.epochDay));
  if (v instanceof LocalTime) return make('LocalTime', ...clock(v.nanoOfDay));
  if (v instanceof CypherTime) return make('Time', ...clock(v.nanoOfDay), v.offsetSeconds);
  if (v instanceof LocalDateTime || v instanceof CypherDateTime) {
    const local = Number(v instanceof CypherDateTime ? v.epochSecond + BigInt(v.offsetSeconds) : v.epochSecond);
    const day = Math.floor(local / 86400);
    const parts = [...civil(day), ...clock((local - day * 86400) * 1e9 + v.nano)];
    if (v instanceof LocalDateTime) return make('LocalDateTime', ...parts);
    return make('DateTime', ...parts.slice(0, 6), v.nano, v.offsetSeconds, v.zoneId ?? undefined);
  }
  throw new Error('Graph entities cannot be sent as parameters');
}
