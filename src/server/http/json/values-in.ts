import type { CypherValue } from '../../../engine/index.js';
import type { JsonValue } from './parse-json.js';

/**
 * Converts a parsed JSON value (see parseJson) into a Cypher value: objects become MAPs,
 * integer literals are INTEGER (bigint), other numbers FLOAT.
 */
export function jsonToCypher(value: JsonValue): CypherValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(jsonToCypher);
  const map = new Map<string, CypherValue>();
  for (const key of Object.keys(value)) map.set(key, jsonToCypher(value[key]!));
  return map;
}

/** Converts a JSON `parameters` object into query parameters. */
export function jsonToParameters(parameters: JsonValue | undefined): ReadonlyMap<string, CypherValue> {
  if (parameters === undefined || parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
    return new Map();
  }
  return jsonToCypher(parameters) as ReadonlyMap<string, CypherValue>;
}
