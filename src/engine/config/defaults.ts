import { isRejected, isSetting, type DeclarationTree } from './declare.js';
import { DECLARATIONS } from './declarations/index.js';
import type { GraphdbConfig } from './types.js';

function defaultsOf(tree: DeclarationTree): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(tree)) {
    if (!isSetting(node)) out[key] = defaultsOf(node);
    else if (!isRejected(node)) out[key] = structuredClone(node.default);
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Built-in defaults (the lowest precedence layer), taken from the declarations. */
export const DEFAULT_CONFIG: Readonly<GraphdbConfig> = deepFreeze(defaultsOf(DECLARATIONS) as unknown as GraphdbConfig);
