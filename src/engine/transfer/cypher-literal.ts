/**
 * Cypher source text of property values, such that running the text yields the same value:
 * temporal values as constructor calls (`date('2020-01-31')`), non-finite floats as divisions,
 * strings with escapes. Byte arrays have no Cypher literal: `cypherLiteral` returns null.
 */
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherVector,
  formatVector,
  CypherTime,
  LocalDateTime,
  LocalTime,
  formatFloat,
  formatPoint,
  formatTemporal,
  type CypherValue,
} from '../values/index.js';
import { isList, isMap } from '../values/kinds.js';

/** Backtick-quotes a name unless it is a plain identifier. */
export function cypherName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '``')}\``;
}

function cypherString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t')}'`;
}

function cypherFloat(x: number): string {
  if (Number.isNaN(x)) return '(0.0/0.0)';
  if (x === Infinity) return '(1.0/0.0)';
  if (x === -Infinity) return '(-1.0/0.0)';
  return formatFloat(x);
}

const TEMPORAL_FUNCTIONS: [new (...args: never[]) => object, string][] = [
  [CypherDate, 'date'],
  [LocalTime, 'localtime'],
  [CypherTime, 'time'],
  [LocalDateTime, 'localdatetime'],
  [CypherDateTime, 'datetime'],
  [CypherDuration, 'duration'],
];

/** Cypher text of a value, or null when Cypher has no literal for it (byte arrays, entities). */
export function cypherLiteral(v: CypherValue): string | null {
  if (v === null) return 'null';
  if (typeof v === 'string') return cypherString(v);
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'number') return cypherFloat(v);
  if (isList(v)) {
    const items = v.map(cypherLiteral);
    return items.includes(null) ? null : `[${items.join(', ')}]`;
  }
  if (isMap(v)) {
    const entries = [...v].map(([k, x]) => [k, cypherLiteral(x)] as const);
    return entries.some(([, x]) => x === null) ? null : `{${entries.map(([k, x]) => `${cypherName(k)}: ${x}`).join(', ')}}`;
  }
  if (v instanceof CypherPoint) {
    return formatPoint(new CypherPoint(v.srid, v.x, v.y, v.z)).replace(
      /: (-?(?:NaN|Infinity))/g,
      (_m, f: string) => `: ${cypherFloat(Number(f))}`,
    );
  }
  if (v instanceof CypherVector) return formatVector(v);
  for (const [type, fn] of TEMPORAL_FUNCTIONS) if (v instanceof type) return `${fn}(${cypherString(formatTemporal(v)!)})`;
  return null;
}
