/** The zod schema of a whole typed configuration, built from the declarations. */
import { z } from 'zod';
import { isRejected, isSetting, type DeclarationTree } from './declare.js';
import { DECLARATIONS } from './declarations/index.js';

function objectSchema(tree: DeclarationTree): z.ZodTypeAny {
  const shape: Record<string, z.ZodTypeAny> = {};
  for (const [key, node] of Object.entries(tree)) {
    if (!isSetting(node)) shape[key] = objectSchema(node);
    else if (!isRejected(node)) shape[key] = node.schema;
  }
  return z.object(shape).strict();
}

/** Validates a complete configuration object: every accepted setting present and of its kind, nothing else. */
export const CONFIG_SCHEMA: z.ZodTypeAny = objectSchema(DECLARATIONS);
