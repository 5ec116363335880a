/**
 * fast-check generators of Cypher values for the property-based tests.
 */
import fc from 'fast-check';
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  NodeRef,
  RelationshipRef,
  Srid,
  type CypherValue,
} from '../../src/engine/values/index.js';

const NANOS_PER_DAY = 86_400_000_000_000;

/** A 64-bit signed integer. */
export const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });

/** Epoch days between years -9999 and 9999 (four-digit years print without a sign). */
export const epochDay = fc.integer({ min: -4_371_587 + 365, max: 2_932_896 - 365 });
/** Nanosecond of day. */
export const nanoOfDay = fc.integer({ min: 0, max: NANOS_PER_DAY - 1 });
/** Offsets between -18:00 and +18:00, whole seconds. */
export const offsetSeconds = fc.integer({ min: -18 * 3600, max: 18 * 3600 });

export const date = epochDay.map((d) => new CypherDate(d));
export const localTime = nanoOfDay.map((n) => new LocalTime(n));
export const time = fc.tuple(nanoOfDay, offsetSeconds).map(([n, o]) => new CypherTime(n, o));
export const localDateTime = fc
  .tuple(epochDay, nanoOfDay)
  .map(([d, n]) => new LocalDateTime(BigInt(d * 86_400 + Math.floor(n / 1e9)), n % 1e9));
export const dateTime = fc
  .tuple(epochDay, nanoOfDay, offsetSeconds)
  .map(([d, n, o]) => new CypherDateTime(BigInt(d * 86_400 + Math.floor(n / 1e9) - o), n % 1e9, o, null));
export const duration = fc
  .tuple(
    fc.integer({ min: -100_000, max: 100_000 }),
    fc.integer({ min: -100_000, max: 100_000 }),
    fc.integer({ min: -1e10, max: 1e10 }),
    fc.integer({ min: 0, max: 999_999_999 }),
  )
  .map(([m, d, s, n]) => new CypherDuration(m, d, BigInt(s), n));
export const point = fc.oneof(
  fc
    .tuple(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ noNaN: true, noDefaultInfinity: true }))
    .map(([x, y]) => new CypherPoint(Srid.Cartesian, x, y)),
  fc
    .tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 90, noNaN: true }))
    .map(([x, y]) => new CypherPoint(Srid.WGS84, x, y)),
);

const scalar: fc.Arbitrary<CypherValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  int64,
  fc.integer({ min: -5, max: 5 }).map(BigInt),
  fc.double(),
  fc.integer({ min: -5, max: 5 }).map((n) => n + 0.0),
  fc.string({ maxLength: 5 }),
  fc.bigInt({ min: 0n, max: 5n }).map((id) => new NodeRef(id)),
  fc.bigInt({ min: 0n, max: 5n }).map((id) => new RelationshipRef(id, 'T', 0n, 1n)),
  date,
  localTime,
  time,
  localDateTime,
  dateTime,
  duration,
  point,
);

/** Any value, nested lists and maps included. */
export const value: fc.Arbitrary<CypherValue> = fc.letrec<{ v: CypherValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('v'), { maxKeys: 3 }).map((o) => new Map(Object.entries(o))),
  ),
})).v;
