/**
 * Query parameters as JSON text. Integer literals become driver Integers (exact 64-bit values,
 * Cypher INTEGER), other numbers FLOAT, as Neo4j Browser's `:params` does.
 */
import neo4j from 'neo4j-driver';

type Reviver = (this: unknown, key: string, value: unknown, context?: { source?: string }) => unknown;

const exactIntegers: Reviver = (_key, value, context) => {
  if (typeof value === 'number' && context?.source !== undefined && /^-?\d+$/.test(context.source)) return neo4j.int(context.source);
  return value;
};

/** JSON text to a value, integers exact. Throws SyntaxError on bad JSON. */
export function parseExactJson(text: string): unknown {
  return JSON.parse(text, exactIntegers);
}

/** The parameter map of the parameters box (empty text: no parameters). */
export function parseParameters(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const value = parseExactJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new SyntaxError('Parameters must be a JSON object, e.g. {"name": "Alice"}.');
  return value as Record<string, unknown>;
}

/** A property value typed in the node editor: JSON when it parses, else the text itself. */
export function parsePropertyValue(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return text;
  }
}
