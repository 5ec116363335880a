/** Helpers to read and write dotted paths in plain nested objects. */

/** Reads `a.b.c` from a nested object; undefined when any step is missing. */
export function getPath(root: unknown, dotted: string): unknown {
  let current: unknown = root;
  for (const part of dotted.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Writes `a.b.c` into a nested object, creating intermediate objects. */
export function setPath(root: Record<string, unknown>, dotted: string, value: unknown): void {
  const parts = dotted.split('.');
  let current = root;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1]!] = value;
}

/** Every leaf path of a nested object (arrays are leaves). */
export function leafPaths(root: unknown, prefix = ''): string[] {
  if (root === null || typeof root !== 'object' || Array.isArray(root)) return prefix === '' ? [] : [prefix];
  return Object.entries(root).flatMap(([key, value]) => leafPaths(value, prefix === '' ? key : `${prefix}.${key}`));
}

/** A deep copy of JSON-like data. */
export function deepClone<T>(value: T): T {
  return structuredClone(value);
}
