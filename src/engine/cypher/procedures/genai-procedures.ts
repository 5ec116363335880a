/**
 * `genai.vector.encodeBatch(resources, provider, configuration = {}) :: (index, resource, vector)`
 * as Neo4j's GenAI plugin defines it (a null resource gets a null vector), backed by graphdb's configured embedding provider (the
 * local GGUF model by default) instead of a cloud API. `provider` must name the configured
 * provider (`local`, `local_server` or `hosted_api`, case-insensitive); `configuration` may give
 * `model` and `dimensions`, which must match the configured model. Embedding is asynchronous: the
 * procedure registers the work with the statement's scheduler and yields PAUSE until it is done,
 * so the event loop stays free while the model runs.
 */
import { ArgumentError, StatusCodes, graphError } from '../../errors/index.js';
import type { CypherValue } from '../../values/types.js';
import { PAUSE, type Signal } from '../runtime/row.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

/** What the engine offers: the configured provider's identity and its embedding call. */
export interface EmbeddingService {
  readonly kind: string;
  readonly model: string;
  readonly dimensions: number | null;
  embed(texts: readonly string[]): Promise<number[][]>;
}

function serviceFor(ctx: ProcedureContext, provider: CypherValue, configuration: CypherValue): EmbeddingService {
  const service = ctx.admin?.embeddings?.();
  if (service === undefined || service === null) {
    throw graphError(StatusCodes.ProcedureCallFailed, 'No embedding provider is configured (embeddings.enabled and embeddings.model).');
  }
  if (typeof provider !== 'string' || provider.toLowerCase() !== service.kind.toLowerCase()) {
    throw new ArgumentError(
      `Vector encoding provider '${valueText(provider)}' is not available. The configured provider is '${service.kind}'.`,
    );
  }
  if (configuration !== null && !(configuration instanceof Map)) throw new ArgumentError('The configuration must be a map');
  for (const [key, value] of configuration ?? new Map<string, CypherValue>()) {
    if (key === 'model') {
      if (value !== service.model)
        throw new ArgumentError(`Model '${String(value)}' is not available. The configured model is '${service.model}'.`);
    } else if (key === 'dimensions') {
      if (service.dimensions !== null && Number(value) !== service.dimensions) {
        throw new ArgumentError(`The configured model has ${service.dimensions} dimensions, not ${String(value)}.`);
      }
    } else {
      throw new ArgumentError(`Unexpected configuration key '${key}' for provider '${service.kind}'. Valid keys: model, dimensions.`);
    }
  }
  return service;
}

/** Runs `work` to completion, yielding PAUSE while it is pending. */
function* awaitResult<T>(ctx: ProcedureContext, work: Promise<T>): Generator<Signal, T> {
  const execution = ctx.execution;
  if (execution === undefined) throw graphError(StatusCodes.ProcedureCallFailed, 'genai.vector.encodeBatch needs a statement scheduler');
  let settled: { value: T } | { error: unknown } | null = null;
  const done = work.then(
    (value) => void (settled = { value }),
    (error: unknown) => void (settled = { error }),
  );
  while (settled === null) {
    execution.scheduler.waitFor(done);
    yield PAUSE;
    if (settled === null && execution.scheduler.waitPending) {
      throw graphError(
        StatusCodes.ProcedureCallFailed,
        'genai.vector.encodeBatch cannot run inside an expression subquery (embedding is asynchronous)',
      );
    }
    execution.scheduler.checkAlive();
  }
  const outcome = settled as { value: T } | { error: unknown };
  if ('error' in outcome)
    throw graphError(StatusCodes.ProcedureCallFailed, `Embedding failed: ${String((outcome.error as Error)?.message ?? outcome.error)}`);
  return outcome.value;
}

/** The GenAI procedures. */
export const genaiProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'genai.vector.encodeBatch',
    inputs: [
      { name: 'resources', type: 'LIST<STRING>' },
      { name: 'provider', type: 'STRING' },
      { name: 'configuration', type: 'MAP', default: new Map() },
    ],
    outputs: [
      { name: 'index', type: 'INTEGER' },
      { name: 'resource', type: 'STRING' },
      { name: 'vector', type: 'LIST<FLOAT>' },
    ],
    mode: 'READ',
    description:
      "Encode a given batch of resources as vectors using the named provider (graphdb: the configured embedding provider, e.g. 'local').",
    *call(args, ctx) {
      const [resources, provider, configuration] = args;
      const service = serviceFor(ctx, provider!, configuration ?? null);
      if (resources === null) return;
      const texts = resources as (string | null)[];
      if (texts.some((t) => t !== null && typeof t !== 'string')) throw new ArgumentError('Resources must be a list of strings');
      const present = texts.filter((t): t is string => t !== null);
      const vectors = present.length === 0 ? [] : yield* awaitResult(ctx, service.embed(present));
      let next = 0;
      for (let i = 0; i < texts.length; i++) yield [BigInt(i), texts[i]!, texts[i] === null ? null : vectors[next++]!];
    },
  },
];
