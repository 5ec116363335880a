import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ArgumentError } from '../../src/engine/errors/index.js';
import {
  CypherPoint,
  cypherToString,
  formatFloat,
  formatLiteral,
  LocalTime,
  Node,
  Relationship,
  Srid,
} from '../../src/engine/values/index.js';
import { durationFromString } from '../../src/engine/values/temporal/duration-input.js';
import { formatDuration } from '../../src/engine/values/temporal/duration.js';
import { parseDateText, parseDateTimeText } from '../../src/engine/values/temporal/parse.js';
import { formatOffset, parseOffset, zoneOffsetAt } from '../../src/engine/values/temporal/time-zone.js';

describe('formatFloat (Java Double.toString)', () => {
  it('prints decimals between 1e-3 and 1e7 and scientific notation outside', () => {
    const cases: [number, string][] = [
      [1, '1.0'],
      [-0, '-0.0'],
      [0.001, '0.001'],
      [0.0001, '1.0E-4'],
      [1234567.5, '1234567.5'],
      [12345678, '1.2345678E7'],
      [1e20, '1.0E20'],
      [NaN, 'NaN'],
      [-Infinity, '-Infinity'],
    ];
    for (const [x, text] of cases) assert.equal(formatFloat(x), text);
  });
});

describe('formatLiteral', () => {
  it('renders values as Cypher literals', () => {
    assert.equal(formatLiteral(["it's", null, true, 2n, 2.0]), "['it\\'s', null, true, 2, 2.0]");
    assert.equal(formatLiteral(new Map([['a b', 1n]])), '{`a b`: 1}');
    assert.equal(formatLiteral(new Node(1n, '4:x:1', ['A'], new Map([['k', 'v']]))), "(:A {k: 'v'})");
    assert.equal(formatLiteral(new Relationship(1n, '5:x:1', 'T', 1n, 2n, '', '', new Map())), '[:T]');
    assert.equal(formatLiteral(new LocalTime(0)), "'00:00'");
    assert.equal(
      formatLiteral(new CypherPoint(Srid.WGS84_3D, 1, 2, 3)),
      "point({longitude: 1.0, latitude: 2.0, height: 3.0, crs: 'wgs-84-3d'})",
    );
  });

  it('toString rejects structural values', () => {
    assert.equal(cypherToString([1n]), null);
    assert.equal(cypherToString(new Map()), null);
    assert.equal(cypherToString(false), 'false');
  });
});

describe('parsing', () => {
  it('reads every date form', () => {
    assert.deepEqual(parseDateText('2015-07'), { kind: 'calendar', year: 2015, month: 7, day: 1 });
    assert.deepEqual(parseDateText('2015W30'), { kind: 'week', year: 2015, week: 30, dayOfWeek: 1 });
    assert.deepEqual(parseDateText('-0001-202'), { kind: 'ordinal', year: -1, ordinalDay: 202 });
    assert.throws(() => parseDateText('15-07-21'), ArgumentError);
  });

  it('separates the time, offset and zone of a datetime', () => {
    const parsed = parseDateTimeText('2015-07-21T21:40:32.1+01:00[Europe/Stockholm]');
    assert.deepEqual(parsed.time, { hour: 21, minute: 40, second: 32, nano: 100_000_000 });
    assert.deepEqual(parsed.zone, { offsetSeconds: 3600, zoneId: 'Europe/Stockholm' });
    assert.equal(parseDateTimeText('2015-07-21').zone, null);
  });

  it('reads durations with signs, fractions, weeks and the alternative format', () => {
    const text = (s: string) => formatDuration(durationFromString(s));
    assert.equal(text('PT0.5S'), 'PT0.5S');
    assert.equal(text('-P1D'), 'P-1D');
    assert.equal(text('P1Y-2M'), 'P10M');
    assert.equal(text('P0.5D'), 'PT12H');
    assert.equal(text('PT-1.5S'), 'PT-1.5S');
    assert.equal(text('P2012-02-02T14:37:21.545'), 'P2012Y2M2DT14H37M21.545S');
    assert.throws(() => durationFromString('P'), ArgumentError);
    assert.throws(() => durationFromString('PT'), ArgumentError);
    assert.throws(() => durationFromString('1D'), ArgumentError);
  });

  it('reads and writes offsets, and finds historical zone offsets', () => {
    assert.equal(parseOffset('+0530'), 19_800);
    assert.equal(parseOffset('-02:05:07'), -7507);
    assert.equal(parseOffset('+19:00'), null);
    assert.equal(formatOffset(0), 'Z');
    assert.equal(formatOffset(-7507), '-02:05:07');
    assert.equal(zoneOffsetAt('Europe/Stockholm', Date.UTC(2017, 6, 1) / 1000), 7200);
    assert.equal(zoneOffsetAt('Europe/Stockholm', Date.UTC(2017, 0, 1) / 1000), 3600);
  });
});

describe('zone offset cache', () => {
  function independentOffset(zoneId: string, epochSecond: number): number {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zoneId, timeZoneName: 'longOffset' })
      .formatToParts(new Date(epochSecond * 1000))
      .find((p) => p.type === 'timeZoneName')!.value;
    const m = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name)!;
    return m[1] === undefined ? 0 : (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
  }

  it('agrees with Intl at arbitrary instants, including around DST transitions', () => {
    const zones = ['Europe/Stockholm', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo'];
    const transition = Date.UTC(2017, 2, 26, 1, 0, 0) / 1000;
    assert.equal(zoneOffsetAt('Europe/Stockholm', transition - 1), 3600);
    assert.equal(zoneOffsetAt('Europe/Stockholm', transition), 7200);
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.UTC(1950, 0, 1) / 1000, max: Date.UTC(2037, 0, 1) / 1000 }),
        (zone, s) => {
          assert.equal(zoneOffsetAt(zone, s), independentOffset(zone, s));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is exact minute by minute around transitions', () => {
    const transitions: [string, number][] = [
      ['America/New_York', Date.UTC(2021, 2, 14, 7, 0, 0) / 1000],
      ['America/New_York', Date.UTC(2021, 10, 7, 6, 0, 0) / 1000],
      ['Australia/Lord_Howe', Date.UTC(2021, 3, 3, 15, 0, 0) / 1000],
    ];
    for (const [zone, at] of transitions) {
      for (let s = at - 1800; s <= at + 1800; s += 60) {
        for (const t of [s, s + 59]) assert.equal(zoneOffsetAt(zone, t), independentOffset(zone, t), `${zone} at ${t}`);
      }
    }
  });
});
