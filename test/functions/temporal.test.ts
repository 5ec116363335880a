import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ArgumentError } from '../../src/engine/errors/index.js';
import { add, cypherToString, multiply, divide, subtract, temporalProperty, type CypherValue } from '../../src/engine/values/index.js';
import { call, callIn, m, testContext } from './helpers.js';

const text = (v: CypherValue) => cypherToString(v);

describe('temporal constructors (values from the TCK)', () => {
  it('builds dates from calendar, week, ordinal and quarter fields', () => {
    const cases: [Record<string, CypherValue>, string][] = [
      [{ year: 1816n, week: 1n }, '1816-01-01'],
      [{ year: 1818n, week: 53n }, '1818-12-28'],
      [{ dayOfWeek: 2n, year: 1817n, week: 1n }, '1816-12-31'],
      [{ year: 1984n, month: 10n }, '1984-10-01'],
      [{ year: 1984n, ordinalDay: 202n }, '1984-07-20'],
      [{ year: 1984n, quarter: 3n, dayOfQuarter: 45n }, '1984-08-14'],
    ];
    for (const [fields, expected] of cases) assert.equal(text(call('date', m(fields))), expected);
  });

  it('selects and overrides components of other temporals', () => {
    const other = call('date', m({ year: 1984n, month: 11n, day: 11n }));
    assert.equal(text(call('date', m({ date: other, week: 1n }))), '1984-01-08');
    assert.equal(text(call('date', m({ date: other, quarter: 3n }))), '1984-08-11');
    const stockholm = call('datetime', m({ year: 1984n, month: 10n, day: 11n, hour: 12n, timezone: 'Europe/Stockholm' }));
    assert.equal(text(stockholm), '1984-10-11T12:00+01:00[Europe/Stockholm]');
    assert.equal(text(call('time', m({ time: stockholm, timezone: '+05:00' }))), '16:00+05:00');
    const t = call('time', m({ hour: 12n, minute: 31n, second: 14n, microsecond: 645876n, timezone: '+01:00' }));
    assert.equal(
      text(call('datetime', m({ year: 1984n, month: 10n, day: 11n, time: t, second: 42n, timezone: 'Pacific/Honolulu' }))),
      '1984-10-11T01:31:42.645876-10:00[Pacific/Honolulu]',
    );
    assert.equal(text(call('localtime', stockholm)), '12:00');
  });

  it('parses every ISO form', () => {
    assert.equal(text(call('date', '2015W302')), '2015-07-21');
    assert.equal(text(call('date', '2015-202')), '2015-07-21');
    assert.equal(text(call('date', '+999999999-12-31')), '+999999999-12-31');
    assert.equal(text(call('localtime', '214032,142')), '21:40:32.142');
    assert.equal(text(call('time', '2140+0100')), '21:40+01:00');
    assert.equal(text(call('datetime', '2015-07-21T21:40:32.142+0100')), '2015-07-21T21:40:32.142+01:00');
    assert.equal(text(call('datetime', '2015-07-21T21:40:32.142[Europe/London]')), '2015-07-21T21:40:32.142+01:00[Europe/London]');
    assert.throws(() => call('date', '2015-13-01'), ArgumentError);
  });

  it('uses the statement clock and the default zone', () => {
    assert.equal(text(call('datetime')), '2023-11-14T22:13:20.123Z');
    assert.equal(text(call('date.statement', 'Asia/Tokyo')), '2023-11-15');
    assert.equal(call('timestamp'), 1_700_000_000_123n);
    assert.equal(text(callIn(testContext(undefined, 'Europe/Berlin'), 'localtime')), '23:13:20.123');
    assert.equal(text(call('datetime.fromepoch', 416779n, 999999999n)), '1970-01-05T19:46:19.999999999Z');
    assert.equal(text(call('datetime.fromepochmillis', 237821673987n)), '1977-07-15T13:34:33.987Z');
  });
});

describe('durations', () => {
  it('builds from maps with cascading fractions and from ISO text', () => {
    assert.equal(text(call('duration', m({ months: 5n, days: 1.5 }))), 'P5M1DT12H');
    assert.equal(text(call('duration', m({ months: 0.75 }))), 'P22DT19H51M49.5S');
    assert.equal(text(call('duration', m({ seconds: -60n, milliseconds: -1n }))), 'PT-1M-0.001S');
    assert.equal(text(call('duration', 'P1Y2M10DT12H45M30.25S')), 'P1Y2M10DT12H45M30.25S');
    assert.equal(text(call('duration', 'P2W')), 'P14D');
  });

  it('adds to and subtracts from every temporal type', () => {
    const dur = call('duration', m({ years: 12.5, months: 5.5, days: 14.5, hours: 16.5, minutes: 12.5, seconds: 70.5, nanoseconds: 3n }));
    const date = call('date', m({ year: 1984n, month: 10n, day: 11n }));
    assert.equal(text(add(date, dur)), '1997-10-11');
    assert.equal(text(subtract(date, dur)), '1971-10-12');
    const ldt = call('localdatetime', m({ year: 1984n, month: 10n, day: 11n, hour: 12n, minute: 31n, second: 14n, nanosecond: 1n }));
    assert.equal(text(add(ldt, dur)), '1997-10-11T22:29:27.500000004');
    assert.equal(text(subtract(ldt, dur)), '1971-10-12T02:33:00.499999998');
    const d1 = call('duration', m({ years: 12n, months: 5n, days: 14n, hours: 16n, minutes: 12n, seconds: 70n, nanoseconds: 1n }));
    assert.equal(text(subtract(d1, dur)), 'P-6M-15DT-17H-45M-3.500000002S');
    assert.equal(text(multiply(d1, 0.5)), 'P6Y2M22DT13H21M8S');
    assert.equal(text(divide(d1, 2n)), 'P6Y2M22DT13H21M8S');
  });

  it('computes between, inMonths, inDays and inSeconds', () => {
    const dt = call('datetime', '2014-07-21T21:40:36.143+0200');
    assert.equal(text(call('duration.between', dt, call('date', '2015-06-24'))), 'P11M2DT2H19M23.857S');
    assert.equal(text(call('duration.between', call('time', '14:30'), call('datetime', '2015-07-21T21:40:32.142+0100'))), 'PT6H10M32.142S');
    assert.equal(
      text(call('duration.between', call('localtime', '14:30'), call('datetime', '2015-07-21T21:40:32.142+0100'))),
      'PT7H10M32.142S',
    );
    assert.equal(text(call('duration.inMonths', call('date', '2018-03-11'), call('date', '2016-06-24'))), 'P-1Y-8M');
    assert.equal(text(call('duration.inDays', call('date', '1984-10-11'), call('date', '2015-06-24'))), 'P11213D');
    const start = call('datetime', m({ year: 2017n, month: 10n, day: 29n, hour: 0n, timezone: 'Europe/Stockholm' }));
    assert.equal(
      text(call('duration.inSeconds', start, call('localdatetime', m({ year: 2017n, month: 10n, day: 29n, hour: 4n })))),
      'PT5H',
    );
    assert.equal(text(call('duration.inSeconds', start, call('date', m({ year: 2017n, month: 10n, day: 30n })))), 'PT25H');
  });
});

describe('truncate and components', () => {
  it('truncates and then applies overrides', () => {
    const ldt = call('localdatetime', m({ year: 1984n, month: 1n, day: 1n, hour: 12n, minute: 31n, second: 14n, nanosecond: 645876123n }));
    assert.equal(text(call('date.truncate', 'weekYear', ldt, m({ day: 5n }))), '1983-01-05');
    assert.equal(text(call('localtime.truncate', 'millisecond', ldt, m({ nanosecond: 2n }))), '12:31:14.645000002');
    const dt = call('datetime', m({ year: 2017n, month: 10n, day: 11n, hour: 12n, timezone: '-01:00' }));
    assert.equal(
      text(call('datetime.truncate', 'millennium', dt, m({ timezone: 'Europe/Stockholm' }))),
      '2000-01-01T00:00+01:00[Europe/Stockholm]',
    );
    assert.throws(() => call('date.truncate', 'hour', ldt), ArgumentError);
  });

  it('exposes components', () => {
    const dt = call(
      'datetime',
      m({ year: 1984n, month: 11n, day: 11n, hour: 12n, minute: 31n, second: 14n, nanosecond: 645876123n, timezone: 'Europe/Stockholm' }),
    );
    const get = (k: string) => temporalProperty(dt, k);
    assert.deepEqual(
      [
        'year',
        'quarter',
        'week',
        'weekYear',
        'ordinalDay',
        'weekDay',
        'dayOfQuarter',
        'millisecond',
        'offsetMinutes',
        'epochSeconds',
        'epochMillis',
      ].map(get),
      [1984n, 4n, 45n, 1984n, 316n, 7n, 42n, 645n, 60n, 469020674n, 469020674645n],
    );
    assert.equal(get('timezone'), 'Europe/Stockholm');
    assert.equal(get('offset'), '+01:00');
    assert.equal(get('noSuchField'), undefined);
    const dur = call('duration', m({ years: 1n, months: 4n, days: 10n, hours: 1n, minutes: 1n, seconds: 1n, nanoseconds: 111111111n }));
    assert.deepEqual(
      ['quarters', 'weeks', 'minutes', 'milliseconds', 'monthsOfQuarter', 'nanosecondsOfSecond'].map((k) => temporalProperty(dur, k)),
      [5n, 1n, 61n, 3661111n, 1n, 111111111n],
    );
  });
});
