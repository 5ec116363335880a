/**
 * Property type constraints: parsing a Cypher type text (`INTEGER`, `STRING | LIST<STRING NOT NULL>`)
 * and checking a stored value against it.
 */
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  CypherVector,
  type CypherValue,
} from '../values/types.js';
import { matchesVectorType } from '../values/vector.js';

const ALIASES: Record<string, string> = {
  BOOL: 'BOOLEAN',
  INT: 'INTEGER',
  'SIGNED INTEGER': 'INTEGER',
  VARCHAR: 'STRING',
  'TIME WITHOUT TIME ZONE': 'LOCAL TIME',
  'TIME WITH TIME ZONE': 'ZONED TIME',
  'TIMESTAMP WITHOUT TIME ZONE': 'LOCAL DATETIME',
  'TIMESTAMP WITH TIME ZONE': 'ZONED DATETIME',
};

/** Splits `A | B | LIST<C | D>` at top-level bars. */
function splitUnion(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

function normalize(part: string): string {
  let text = part.toUpperCase().replace(/\s+/g, ' ').trim();
  if (text.startsWith('ANY<') && text.endsWith('>')) text = text.slice(4, -1).trim();
  text = text.replace(/^ARRAY\s*</, 'LIST<');
  return ALIASES[text] ?? text;
}

/** The Cypher type name of a stored value (`INTEGER`, `LIST<STRING NOT NULL>`, ...). */
export function propertyTypeName(value: CypherValue): string {
  if (Array.isArray(value)) {
    const list = value as readonly CypherValue[];
    if (list.length === 0) return 'LIST<NOTHING>';
    return `LIST<${propertyTypeName(list[0]!)} NOT NULL>`;
  }
  switch (typeof value) {
    case 'boolean':
      return 'BOOLEAN';
    case 'bigint':
      return 'INTEGER';
    case 'number':
      return 'FLOAT';
    case 'string':
      return 'STRING';
    default:
      break;
  }
  if (value instanceof CypherDate) return 'DATE';
  if (value instanceof LocalTime) return 'LOCAL TIME';
  if (value instanceof CypherTime) return 'ZONED TIME';
  if (value instanceof LocalDateTime) return 'LOCAL DATETIME';
  if (value instanceof CypherDateTime) return 'ZONED DATETIME';
  if (value instanceof CypherDuration) return 'DURATION';
  if (value instanceof CypherPoint) return 'POINT';
  if (value instanceof Uint8Array) return 'BYTES';
  if (value instanceof CypherVector) return `VECTOR<${value.coordinateType}>(${value.dimension})`;
  return 'ANY';
}

function matchesOne(type: string, value: CypherValue): boolean {
  if (type === 'ANY' || type === 'PROPERTY VALUE') return true;
  if (type.startsWith('VECTOR')) return value instanceof CypherVector && matchesVectorType(type, value);
  const list = /^LIST\s*<(.*)>$/.exec(type);
  if (list) {
    if (!Array.isArray(value)) return false;
    const inner = list[1]!.replace(/\s+NOT NULL$/, '').trim();
    return (value as readonly CypherValue[]).every((item) => matchesPropertyType(inner, item));
  }
  return propertyTypeName(value) === type;
}

/** True when `value` is of (one of) the types in `typeText`. */
export function matchesPropertyType(typeText: string, value: CypherValue): boolean {
  return splitUnion(typeText).some((part) => matchesOne(normalize(part), value));
}

/** The canonical spelling of a type text (for messages and SHOW CONSTRAINTS). */
export function normalizePropertyType(typeText: string): string {
  return splitUnion(typeText)
    .map((p) => normalize(p))
    .join(' | ');
}
