/**
 * The custom scalars: `JSON` (any JSON; integer literals stay exact as bigint until converted to
 * Cypher), `DateTime` (RFC 3339 text) and `FloatArray` (32-bit floats).
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literalValue(node: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (node.kind) {
    case Kind.INT:
      return BigInt(node.value);
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return node.values.map((item) => literalValue(item, variables));
    case Kind.OBJECT: {
      const object: Record<string, unknown> = {};
      for (const field of node.fields) object[field.name.value] = literalValue(field.value, variables);
      return object;
    }
    case Kind.VARIABLE:
      return variables?.[node.name.value] ?? null;
  }
}

/** Arbitrary JSON. */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Arbitrary JSON value (used for properties and Cypher parameters).',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalValue,
});

function toRfc3339(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  throw new GraphQLError(`DateTime cannot represent ${String(value)}`);
}

/** RFC 3339 timestamps. */
export const DateTimeScalar = new GraphQLScalarType({
  name: 'DateTime',
  description: 'RFC 3339 timestamp.',
  serialize: toRfc3339,
  parseValue: (value) => {
    const text = toRfc3339(value);
    if (Number.isNaN(Date.parse(text))) throw new GraphQLError(`DateTime cannot represent ${text}`);
    return text;
  },
  parseLiteral: (node) => {
    if (node.kind !== Kind.STRING || Number.isNaN(Date.parse(node.value))) throw new GraphQLError('DateTime must be an RFC 3339 string');
    return node.value;
  },
});

function floatArray(value: unknown): number[] {
  if (!Array.isArray(value) && !(value instanceof Float32Array)) throw new GraphQLError('FloatArray must be a list of numbers');
  return Array.from(value as ArrayLike<unknown>, (item) => {
    const number = typeof item === 'bigint' ? Number(item) : item;
    if (typeof number !== 'number' || !Number.isFinite(number)) throw new GraphQLError('FloatArray items must be finite numbers');
    return Math.fround(number);
  });
}

/** Arrays of 32-bit floats (embeddings). */
export const FloatArrayScalar = new GraphQLScalarType({
  name: 'FloatArray',
  description: 'Array of 32-bit floats (embeddings).',
  serialize: floatArray,
  parseValue: floatArray,
  parseLiteral: (node, variables) => floatArray(literalValue(node, variables)),
});
