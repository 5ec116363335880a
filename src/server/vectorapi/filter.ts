/**
 * Qdrant filters (`qdrant.Filter`) compiled to predicates over stored points: `must` (all),
 * `should` (at least one), `must_not` (none), `min_should`, nested filters, `has_id`,
 * `has_vector`, `is_empty`, `is_null`, `nested`, and field conditions with `match` (keyword,
 * integer, boolean, text, phrase, text_any, keywords, integers, except_*), `range`,
 * `datetime_range` and `values_count`. A field holding a list matches when any element does;
 * keys are paths (`a.b`, `a[].b`). Geo conditions are refused with INVALID_ARGUMENT.
 */
import type { Condition, FieldCondition, Filter, Match, Range, ValuesCount } from '@qdrant/js-client-grpc';
import {
  ArgumentError,
  pointIdKey,
  type PointPredicate,
  type Payload,
  type PayloadObject,
  type PayloadValue,
  type StoredPoint,
} from '../../engine/index.js';
import { pointIdFromProto } from './convert.js';

/** Something a condition can be evaluated against: a point, or an element of a `nested` array. */
interface Subject {
  readonly payload: Payload | PayloadObject;
  readonly point: StoredPoint;
}

type SubjectPredicate = (subject: Subject) => boolean;

function isObject(value: PayloadValue | undefined): value is PayloadObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Values at a key path; list elements are flattened at `[]` and at the end of the path. */
export function valuesAt(payload: Payload | PayloadObject, key: string): PayloadValue[] {
  let current: PayloadValue[] = [payload];
  for (const rawPart of key.split('.')) {
    const flatten = rawPart.endsWith('[]');
    const part = flatten ? rawPart.slice(0, -2) : rawPart;
    const next: PayloadValue[] = [];
    for (const value of current) {
      if (!isObject(value) || !(part in value)) continue;
      const inner = value[part]!;
      if (flatten && Array.isArray(inner)) next.push(...(inner as PayloadValue[]));
      else next.push(inner);
    }
    current = next;
  }
  return current.flatMap((value) => (Array.isArray(value) ? (value as PayloadValue[]) : [value]));
}

function numeric(value: PayloadValue): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}

function matchPredicate(match: Match): (value: PayloadValue) => boolean {
  const m = match.matchValue;
  switch (m.case) {
    case 'keyword':
      return (value) => value === m.value;
    case 'integer':
      return (value) => (typeof value === 'bigint' && value === m.value) || (typeof value === 'number' && value === Number(m.value));
    case 'boolean':
      return (value) => value === m.value;
    // Without a full-text index Qdrant matches text as an exact substring.
    case 'text':
    case 'phrase':
      return (value) => typeof value === 'string' && value.includes(m.value);
    case 'textAny': {
      const words = m.value.split(/\s+/).filter((w) => w !== '');
      return (value) => typeof value === 'string' && words.some((w) => value.includes(w));
    }
    case 'keywords': {
      const wanted = new Set(m.value.strings);
      return (value) => typeof value === 'string' && wanted.has(value);
    }
    case 'integers': {
      const wanted = new Set(m.value.integers);
      return (value) =>
        (typeof value === 'bigint' && wanted.has(value)) ||
        (typeof value === 'number' && Number.isInteger(value) && wanted.has(BigInt(value)));
    }
    case 'exceptKeywords': {
      const excluded = new Set(m.value.strings);
      return (value) => !(typeof value === 'string' && excluded.has(value));
    }
    case 'exceptIntegers': {
      const excluded = new Set(m.value.integers);
      return (value) => !(typeof value === 'bigint' && excluded.has(value));
    }
    case undefined:
      throw new ArgumentError('Wrong input: match condition without a value');
  }
}

function rangePredicate(range: Range | ValuesCount, toNumber: (value: number | bigint) => number): (n: number) => boolean {
  const bounds = {
    lt: range.lt === undefined ? undefined : toNumber(range.lt),
    gt: range.gt === undefined ? undefined : toNumber(range.gt),
    gte: range.gte === undefined ? undefined : toNumber(range.gte),
    lte: range.lte === undefined ? undefined : toNumber(range.lte),
  };
  return (n) =>
    (bounds.lt === undefined || n < bounds.lt) &&
    (bounds.gt === undefined || n > bounds.gt) &&
    (bounds.gte === undefined || n >= bounds.gte) &&
    (bounds.lte === undefined || n <= bounds.lte);
}

function isEmptyValues(values: readonly PayloadValue[]): boolean {
  return values.every((value) => value === null);
}

function fieldPredicate(condition: FieldCondition): SubjectPredicate {
  const { key } = condition;
  if (key === '') throw new ArgumentError('Wrong input: field condition without a key');
  const checks: SubjectPredicate[] = [];
  if (condition.match !== undefined) {
    // A list matches when any element does; for except_* that is any element outside the list.
    const matches = matchPredicate(condition.match);
    checks.push(({ payload }) => valuesAt(payload, key).some(matches));
  }
  if (condition.range !== undefined) {
    const inRange = rangePredicate(condition.range, Number);
    checks.push(({ payload }) =>
      valuesAt(payload, key).some((value) => {
        const n = numeric(value);
        return n !== null && inRange(n);
      }),
    );
  }
  if (condition.datetimeRange !== undefined) {
    const { lt, gt, gte, lte } = condition.datetimeRange;
    const millis = (t: typeof lt): number | undefined =>
      t === undefined ? undefined : Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6);
    const inRange = rangePredicate({ lt: millis(lt), gt: millis(gt), gte: millis(gte), lte: millis(lte) } as Range, Number);
    checks.push(({ payload }) =>
      valuesAt(payload, key).some((value) => {
        if (typeof value !== 'string') return false;
        const time = Date.parse(value);
        return Number.isFinite(time) && inRange(time);
      }),
    );
  }
  if (condition.valuesCount !== undefined) {
    const inRange = rangePredicate(condition.valuesCount, Number);
    checks.push(({ payload }) => inRange(valuesAt(payload, key).length));
  }
  if (condition.isEmpty !== undefined) {
    const wanted = condition.isEmpty;
    checks.push(({ payload }) => isEmptyValues(valuesAt(payload, key)) === wanted);
  }
  if (condition.isNull !== undefined) {
    const wanted = condition.isNull;
    checks.push(({ payload }) => isNullAt(payload, key) === wanted);
  }
  if (condition.geoBoundingBox !== undefined || condition.geoRadius !== undefined || condition.geoPolygon !== undefined) {
    throw new ArgumentError('Wrong input: geo conditions are not supported by this server');
  }
  if (checks.length === 0) throw new ArgumentError(`Wrong input: field condition on '${key}' has no condition`);
  return (subject) => checks.every((check) => check(subject));
}

function isNullAt(payload: Payload | PayloadObject, key: string): boolean {
  const parts = key.split('.');
  const last = parts.pop()!;
  const parents = parts.length === 0 ? [payload as PayloadValue] : valuesAt(payload, parts.join('.'));
  return parents.some((parent) => isObject(parent) && last in parent && parent[last] === null);
}

function conditionPredicate(condition: Condition): SubjectPredicate {
  const c = condition.conditionOneOf;
  switch (c.case) {
    case 'field':
      return fieldPredicate(c.value);
    case 'filter':
      return filterPredicate(c.value);
    case 'isEmpty': {
      const { key } = c.value;
      return ({ payload }) => isEmptyValues(valuesAt(payload, key));
    }
    case 'isNull': {
      const { key } = c.value;
      return ({ payload }) => isNullAt(payload, key);
    }
    case 'hasId': {
      const ids = new Set(c.value.hasId.map((id) => pointIdKey(pointIdFromProto(id))));
      return ({ point }) => ids.has(pointIdKey(point.id));
    }
    case 'hasVector': {
      const name = c.value.hasVector;
      return ({ point }) => point.vectors.has(name);
    }
    case 'nested': {
      const { key, filter } = c.value;
      if (filter === undefined) throw new ArgumentError('Wrong input: nested condition without a filter');
      const inner = filterPredicate(filter);
      return ({ payload, point }) => valuesAt(payload, key).some((element) => isObject(element) && inner({ payload: element, point }));
    }
    case undefined:
      throw new ArgumentError('Wrong input: empty condition');
  }
}

function filterPredicate(filter: Filter): SubjectPredicate {
  const must = filter.must.map(conditionPredicate);
  const should = filter.should.map(conditionPredicate);
  const mustNot = filter.mustNot.map(conditionPredicate);
  const minShould =
    filter.minShould === undefined
      ? null
      : { conditions: filter.minShould.conditions.map(conditionPredicate), count: Number(filter.minShould.minCount) };
  return (subject) =>
    must.every((p) => p(subject)) &&
    (should.length === 0 || should.some((p) => p(subject))) &&
    !mustNot.some((p) => p(subject)) &&
    (minShould === null || minShould.conditions.filter((p) => p(subject)).length >= minShould.count);
}

/** The predicate of a filter; undefined without one. Throws ArgumentError for malformed or unsupported conditions. */
export function compileFilter(filter: Filter | undefined): PointPredicate | undefined {
  if (filter === undefined) return undefined;
  const predicate = filterPredicate(filter);
  return (point) => predicate({ payload: point.payload, point });
}
