/** Shared helpers for storage tests: temporary engines, value arbitraries, deep value equality. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { StorageEngine, type StorageEngineOptions } from '../../src/engine/storage/index.js';
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  type CypherValue,
} from '../../src/engine/values/types.js';

/** A fresh data directory and an engine on it; `dispose()` closes and deletes both. */
export function tempEngine(options: Partial<StorageEngineOptions> = {}): {
  engine: StorageEngine;
  dir: string;
  reopen(): StorageEngine;
  dispose(): void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-storage-'));
  let engine = StorageEngine.open({ dataDir: dir, ...options });
  return {
    get engine() {
      return engine;
    },
    dir,
    reopen() {
      engine.close();
      engine = StorageEngine.open({ dataDir: dir, ...options });
      return engine;
    },
    dispose() {
      engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Map literal helper. */
export function props(entries: Record<string, CypherValue>): Map<string, CypherValue> {
  return new Map(Object.entries(entries));
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const safeInt = fc.integer({ min: -2_000_000_000, max: 2_000_000_000 });

/** Scalar values a property may hold, one arbitrary per kind. */
export const scalarArbitraries: Record<string, fc.Arbitrary<CypherValue>> = {
  boolean: fc.boolean(),
  integer: fc.oneof(int64, fc.bigInt({ min: -300n, max: 300n })),
  float: fc.double(),
  string: fc.string({ unit: 'binary', maxLength: 40 }),
  bytes: fc.uint8Array({ maxLength: 40 }),
  date: fc.integer({ min: -365_000_000, max: 365_000_000 }).map((d) => new CypherDate(d)),
  localtime: fc.integer({ min: 0, max: 86_399_999_999_999 }).map((n) => new LocalTime(n)),
  time: fc
    .tuple(fc.integer({ min: 0, max: 86_399_999_999_999 }), fc.integer({ min: -64_800, max: 64_800 }))
    .map(([n, o]) => new CypherTime(n, o)),
  localdatetime: fc
    .tuple(fc.integer({ min: -1e11, max: 1e11 }), fc.integer({ min: 0, max: 999_999_999 }))
    .map(([s, n]) => new LocalDateTime(BigInt(s), n)),
  datetime: fc
    .tuple(
      fc.integer({ min: -1e11, max: 1e11 }),
      fc.integer({ min: 0, max: 999_999_999 }),
      fc.integer({ min: -64_800, max: 64_800 }),
      fc.option(fc.constantFrom('Europe/Stockholm', 'America/New_York', 'UTC'), { nil: null }),
    )
    .map(([s, n, o, z]) => new CypherDateTime(BigInt(s), n, o, z)),
  duration: fc
    .tuple(safeInt, safeInt, safeInt, fc.integer({ min: -999_999_999, max: 999_999_999 }))
    .map(([m, d, s, n]) => new CypherDuration(m, d, BigInt(s), n)),
  point: fc.oneof(
    fc.tuple(fc.constantFrom(7203, 4326), fc.double(), fc.double()).map(([srid, x, y]) => new CypherPoint(srid, x, y)),
    fc.tuple(fc.constantFrom(9157, 4979), fc.double(), fc.double(), fc.double()).map(([srid, x, y, z]) => new CypherPoint(srid, x, y, z)),
  ),
};

const anyScalar = fc.oneof(...Object.values(scalarArbitraries));

/** Values a property may hold: scalars and homogeneous lists without nulls. */
export const storableValue: fc.Arbitrary<CypherValue> = fc.oneof(
  anyScalar,
  fc.constantFrom(...Object.keys(scalarArbitraries)).chain((kind) => fc.array(scalarArbitraries[kind], { maxLength: 6 })),
);

/** Any value the codec must round-trip (also nulls, mixed lists, nested lists and maps). */
export const codecValue: fc.Arbitrary<CypherValue> = fc.letrec<{ value: CypherValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyScalar,
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.array(fc.tuple(fc.string({ unit: 'binary', maxLength: 10 }), tie('value')), { maxLength: 5 }).map((entries) => new Map(entries)),
  ),
})).value;

/** Deep equality that distinguishes -0.0 from 0.0, treats NaN as equal to NaN and compares classes. */
export function sameValue(a: CypherValue | undefined, b: CypherValue | undefined): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  if (a.constructor !== b.constructor && !(a instanceof Uint8Array && b instanceof Uint8Array)) return false;
  if (a instanceof Uint8Array) return Buffer.from(a).equals(Buffer.from(b as Uint8Array));
  if (Array.isArray(a)) {
    const other = b as readonly CypherValue[];
    return a.length === other.length && a.every((item: CypherValue, i: number) => sameValue(item, other[i]));
  }
  if (a instanceof Map) {
    const other = b as Map<string, CypherValue>;
    if (a.size !== other.size) return false;
    for (const [key, value] of a) if (!other.has(key) || !sameValue(value, other.get(key))) return false;
    return true;
  }
  const keysA = Object.keys(a);
  const recordA = a as unknown as Record<string, CypherValue>;
  const recordB = b as unknown as Record<string, CypherValue>;
  return keysA.length === Object.keys(b).length && keysA.every((k) => sameValue(recordA[k], recordB[k]));
}
