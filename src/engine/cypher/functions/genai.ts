/**
 * `genai.vector.encode(resource, provider, configuration = {})`: Neo4j's GenAI function, on the
 * configured embedding provider. Embedding is asynchronous while expressions are evaluated
 * synchronously, so the planner evaluates each call ahead of its clause through
 * `genai.vector.encodeBatch` (planner/hoist-encode.ts); this implementation only runs where that
 * is impossible (inside a MATCH, or with variables the clause itself binds) and explains why.
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import { scalar } from './define.js';
import type { ScalarFunction } from './registry.js';

/** The GenAI functions. */
export const genaiFunctions: readonly ScalarFunction[] = [
  scalar(
    'genai.vector.encode',
    {
      min: 2,
      max: 3,
      nullIn: false,
      deterministic: false,
      category: 'Vector',
      description: 'Encode a given resource as a vector using the named provider (graphdb: the configured embedding provider).',
    },
    () => {
      throw graphError(
        StatusCodes.ProcedureCallFailed,
        'genai.vector.encode cannot be evaluated here: compute it in a WITH, LET, RETURN, UNWIND, SET or CREATE clause from variables bound before that clause (or use genai.vector.encodeBatch).',
      );
    },
  ),
];
