/**
 * Temporal functions: the five constructors with their `.transaction/.statement/.realtime`
 * clocks and `.truncate`, `datetime.fromepoch[millis]`, `duration()` with `.between`,
 * `.inMonths`, `.inDays`, `.inSeconds`, and `timestamp()`.
 */
import { CypherTypeError } from '../../errors/index.js';
import { isTemporalInstant, typeName } from '../../values/kinds.js';
import { durationBetween, type BetweenUnit } from '../../values/temporal/between.js';
import {
  constructTemporal,
  dateTimeFromEpoch,
  parseZone,
  temporalNow,
  type TemporalEnvironment,
  type TemporalKind,
} from '../../values/temporal/construct.js';
import { durationFromMap, durationFromString } from '../../values/temporal/duration-input.js';
import { truncateTemporal } from '../../values/temporal/truncate.js';
import { floorDiv } from '../../values/temporal/calendar.js';
import { CypherDuration, type CypherValue } from '../../values/types.js';
import { asInteger, asString, scalar, wrongType } from './define.js';
import type { FunctionContext, ScalarFunction } from './registry.js';

type ClockKind = 'transaction' | 'statement' | 'realtime';

function environment(ctx: FunctionContext, clock: ClockKind = 'statement'): TemporalEnvironment {
  return { now: () => ctx.clock(clock), defaultTimeZone: ctx.defaultTimeZone };
}

const KINDS: readonly TemporalKind[] = ['date', 'localtime', 'time', 'localdatetime', 'datetime'];

function constructor(kind: TemporalKind): ScalarFunction {
  return scalar(
    kind,
    {
      min: 0,
      max: 1,
      nullIn: false,
      deterministic: false,
      category: 'Temporal',
      description: `Creates a ${kind} from a string, map or other temporal value (or now).`,
    },
    ([arg], ctx) => constructTemporal(kind, arg, environment(ctx)),
  );
}

function clockFunction(kind: TemporalKind, clock: ClockKind): ScalarFunction {
  return scalar(
    `${kind}.${clock}`,
    {
      min: 0,
      max: 1,
      nullIn: false,
      deterministic: false,
      category: 'Temporal',
      description: `The current ${kind} by the ${clock} clock.`,
    },
    ([zone], ctx) => {
      if (zone === null) return null;
      const env = environment(ctx, clock);
      return temporalNow(kind, env, zone === undefined ? undefined : parseZone(asString(`${kind}.${clock}`, zone)));
    },
  );
}

function truncateFunction(kind: TemporalKind): ScalarFunction {
  const name = `${kind}.truncate`;
  return scalar(
    name,
    { min: 2, max: 3, nullIn: false, category: 'Temporal', description: `Truncates a temporal value to a ${kind} at the given unit.` },
    ([unit, value, overrides], ctx) => {
      if (unit === null || value === null || value === undefined) return null;
      if (!isTemporalInstant(value)) throw wrongType(name, value, 'a temporal value');
      if (overrides !== undefined && overrides !== null && !(overrides instanceof Map)) throw wrongType(name, overrides, 'Map');
      return truncateTemporal(
        kind,
        asString(name, unit!),
        value,
        (overrides as ReadonlyMap<string, CypherValue> | undefined) ?? null,
        environment(ctx),
      );
    },
  );
}

function betweenFunction(name: string, unit: BetweenUnit): ScalarFunction {
  return scalar(name, { min: 2, category: 'Temporal', description: 'The duration between two temporal values.' }, ([from, to]) => {
    if (!isTemporalInstant(from!)) throw wrongType(name, from!, 'a temporal value');
    if (!isTemporalInstant(to!)) throw wrongType(name, to!, 'a temporal value');
    return durationBetween(from, to, unit);
  });
}

/** The temporal functions. */
export const temporalFunctions: readonly ScalarFunction[] = [
  ...KINDS.map(constructor),
  ...KINDS.flatMap((k) => (['transaction', 'statement', 'realtime'] as const).map((c) => clockFunction(k, c))),
  ...KINDS.map(truncateFunction),
  scalar(
    'datetime.fromepoch',
    { min: 2, category: 'Temporal', description: 'A datetime from seconds and nanoseconds since the epoch.' },
    ([s, n], ctx) =>
      dateTimeFromEpoch(
        BigInt(asInteger('datetime.fromepoch', s!, true)),
        Number(asInteger('datetime.fromepoch', n!, true)),
        environment(ctx),
      ),
  ),
  scalar(
    'datetime.fromepochmillis',
    { category: 'Temporal', description: 'A datetime from milliseconds since the epoch.' },
    ([ms], ctx) => {
      const millis = Number(asInteger('datetime.fromepochmillis', ms!, true));
      const seconds = floorDiv(millis, 1000);
      return dateTimeFromEpoch(BigInt(seconds), (millis - seconds * 1000) * 1_000_000, environment(ctx));
    },
  ),
  scalar('duration', { category: 'Temporal', description: 'A duration from an ISO-8601 string or a map of components.' }, ([v]) => {
    if (typeof v === 'string') return durationFromString(v);
    if (v instanceof Map) return durationFromMap(v);
    if (v instanceof CypherDuration) return v;
    throw new CypherTypeError(`Invalid input for duration(): expected a String or Map but was ${typeName(v!)}`, {
      detail: 'InvalidArgumentType',
    });
  }),
  betweenFunction('duration.between', null),
  betweenFunction('duration.inMonths', 'months'),
  betweenFunction('duration.inDays', 'days'),
  betweenFunction('duration.inSeconds', 'seconds'),
  scalar(
    'timestamp',
    { min: 0, deterministic: false, category: 'Temporal', description: 'Milliseconds since the epoch (statement clock).' },
    (_args, ctx) => {
      const now = ctx.clock('statement');
      return BigInt(now.epochSecond) * 1000n + BigInt(Math.floor(now.nano / 1_000_000));
    },
  ),
];
