import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CypherDateTime, cypherToString, equals, formatDuration, type CypherValue } from '../../src/engine/values/index.js';
import { temporalFromString, type TemporalEnvironment, type TemporalKind } from '../../src/engine/values/temporal/construct.js';
import { durationFromString } from '../../src/engine/values/temporal/duration-input.js';
import { dateTimeFromInstant } from '../../src/engine/values/temporal/zoned.js';
import { date, dateTime, duration, localDateTime, localTime, time } from './arbitraries.js';

const env: TemporalEnvironment = { now: () => ({ epochSecond: 1_700_000_000, nano: 0 }), defaultTimeZone: 'UTC' };

function roundTrips(kind: TemporalKind, arbitrary: fc.Arbitrary<CypherValue>) {
  fc.assert(
    fc.property(arbitrary, (v) => {
      const text = cypherToString(v)!;
      const parsed = temporalFromString(kind, text, env);
      assert.equal(cypherToString(parsed), text);
      assert.equal(equals(parsed, v), true, `${text} did not parse back to an equal value`);
    }),
    { numRuns: 1000 },
  );
}

describe('temporal parse ∘ toString', () => {
  it('round-trips dates', () => roundTrips('date', date));
  it('round-trips local times', () => roundTrips('localtime', localTime));
  it('round-trips times with offsets', () => roundTrips('time', time));
  it('round-trips local datetimes', () => roundTrips('localdatetime', localDateTime));
  it('round-trips datetimes with offsets', () => roundTrips('datetime', dateTime));

  it('round-trips datetimes in named zones (offset and zone id preserved)', () => {
    const zones = fc.constantFrom('Europe/Stockholm', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Honolulu');
    fc.assert(
      fc.property(
        fc.integer({ min: -2_000_000_000, max: 4_000_000_000 }),
        fc.integer({ min: 0, max: 999_999_999 }),
        zones,
        (s, n, zoneId) => {
          const v = dateTimeFromInstant(BigInt(s), n, { kind: 'named', zoneId });
          const parsed = temporalFromString('datetime', cypherToString(v)!, env) as CypherDateTime;
          assert.deepEqual(
            [parsed.epochSecond, parsed.nano, parsed.offsetSeconds, parsed.zoneId],
            [v.epochSecond, v.nano, v.offsetSeconds, v.zoneId],
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('round-trips durations', () => {
    fc.assert(
      fc.property(duration, (d) => {
        const parsed = durationFromString(formatDuration(d));
        assert.deepEqual([parsed.months, parsed.days, parsed.seconds, parsed.nanoseconds], [d.months, d.days, d.seconds, d.nanoseconds]);
      }),
      { numRuns: 1000 },
    );
  });
});
