/**
 * A small static type lattice for compile-time checks. Types are only as precise as the query
 * text allows: anything not evident from literals, patterns and a few operators is `Any`, and a
 * check only fails when a type is definitely wrong (never on `Any` or `Null`).
 */
export type ScalarType =
  | 'Any'
  | 'Null'
  | 'Boolean'
  | 'String'
  | 'Integer'
  | 'Float'
  | 'Number'
  | 'Map'
  | 'Node'
  | 'Relationship'
  | 'Path'
  | 'Point'
  | 'Temporal'
  | 'Duration';

/** A scalar type or a list of some element type. */
export type StaticType = ScalarType | { readonly list: StaticType };

/** `LIST<element>`. */
export function listOf(element: StaticType): StaticType {
  return { list: element };
}

/** True for list types. */
export function isList(type: StaticType): type is { readonly list: StaticType } {
  return typeof type === 'object';
}

/** Element type of a list (`Any` for non-lists that may be lists at run time). */
export function elementOf(type: StaticType): StaticType {
  return isList(type) ? type.list : 'Any';
}

/** True when the type is unknown or null (no static check may fail on it). */
export function isOpen(type: StaticType): boolean {
  return type === 'Any' || type === 'Null';
}

/** Readable name, e.g. `List<Integer>`. */
export function typeToString(type: StaticType): string {
  return isList(type) ? `List<${typeToString(type.list)}>` : type;
}

/** The least common type of several (`Any` when they differ, numbers widen to `Number`). */
export function commonType(types: readonly StaticType[]): StaticType {
  const known = types.filter((t) => t !== 'Null');
  if (known.length === 0) return types.length > 0 ? 'Null' : 'Any';
  const first = known[0]!;
  if (known.every((t) => sameType(t, first))) return first;
  if (known.every((t) => t === 'Integer' || t === 'Float' || t === 'Number')) return 'Number';
  if (known.every(isList)) return listOf(commonType(known.map(elementOf)));
  return 'Any';
}

/** Structural equality of types. */
export function sameType(a: StaticType, b: StaticType): boolean {
  if (isList(a) || isList(b)) return isList(a) && isList(b) && sameType(a.list, b.list);
  return a === b;
}

/** Registry type names a `Temporal` static type may turn out to be. */
const temporalNames = new Set(['Temporal', 'Date', 'LocalTime', 'Time', 'LocalDateTime', 'DateTime']);

/**
 * True when a value of `actual` may be accepted where one of `accepted` (registry type names:
 * `Node`, `Map`, `String`, `Number`, `List`, `Any`, ...) is required.
 */
export function mayBeOneOf(actual: StaticType, accepted: readonly string[]): boolean {
  if (isOpen(actual) || accepted.includes('Any')) return true;
  if (isList(actual)) return accepted.some((name) => name === 'List' || name.startsWith('List'));
  if (actual === 'Number') return accepted.some((name) => name === 'Number' || name === 'Integer' || name === 'Float');
  if ((actual === 'Integer' || actual === 'Float') && accepted.includes('Number')) return true;
  if (actual === 'Temporal') return accepted.some((name) => temporalNames.has(name));
  if (actual === 'Duration' && accepted.includes('Temporal')) return true;
  return accepted.includes(actual);
}

/**
 * Converts a procedure field type text (`INTEGER?`, `LIST? OF STRING?`, `NUMBER`, `ANY?`) to a
 * static type.
 */
export function typeFromSignature(text: string): StaticType {
  const clean = text.replace(/\?/g, '').trim().toUpperCase();
  const list = /^LIST\s+OF\s+(.+)$/.exec(clean) ?? /^LIST\s*<(.+)>$/.exec(clean);
  if (list) return listOf(typeFromSignature(list[1]!));
  switch (clean) {
    case 'STRING':
      return 'String';
    case 'INTEGER':
    case 'INT':
      return 'Integer';
    case 'FLOAT':
      return 'Float';
    case 'NUMBER':
      return 'Number';
    case 'BOOLEAN':
      return 'Boolean';
    case 'MAP':
      return 'Map';
    case 'NODE':
      return 'Node';
    case 'RELATIONSHIP':
      return 'Relationship';
    case 'PATH':
      return 'Path';
    case 'POINT':
      return 'Point';
    case 'DURATION':
      return 'Duration';
    case 'DATE':
    case 'DATETIME':
    case 'LOCALDATETIME':
    case 'TIME':
    case 'LOCALTIME':
      return 'Temporal';
    default:
      return 'Any';
  }
}
