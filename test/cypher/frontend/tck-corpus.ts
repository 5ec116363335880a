/**
 * The TCK feature files as a front-end corpus: every query with what the TCK expects of the
 * compiler (success, or a compile-time error class and detail), plus the procedure signatures
 * and parameter names a scenario declares.
 */
import { loadScenarios, namedGraphScript } from '../../tck/features.js';
import type { ProcedureSignature } from '../../../src/engine/cypher/semantic/index.js';

/** One query of the corpus. */
export interface CorpusQuery {
  readonly id: string;
  readonly query: string;
  /** `{errorType, detail}` when the TCK expects a compile-time failure; null when it must compile. */
  readonly expectedError: { readonly errorType: string; readonly detail: string } | null;
  /** The error the TCK allows at compile time or run time ("at any time"), else null. */
  readonly eitherWay: { readonly errorType: string; readonly detail: string } | null;
  readonly procedures: ReadonlyMap<string, ProcedureSignature>;
  readonly parameterNames: ReadonlySet<string>;
}

/** Parses `test.my.proc(in :: INTEGER?, name :: STRING?) :: (out :: INTEGER?)`. */
export function parseProcedureSignature(text: string): ProcedureSignature {
  const match = /^([\w.]+)\((.*?)\)\s*::\s*\((.*)\)\s*$/.exec(text.trim());
  if (!match) throw new Error(`Unreadable procedure signature: ${text}`);
  const fields = (list: string) =>
    list
      .split(',')
      .map((f) => f.trim())
      .filter((f) => f.length > 0)
      .map((f) => {
        const [name = '', type = 'ANY?'] = f.split('::').map((s) => s.trim());
        return { name, type };
      });
  return { name: match[1], inputs: fields(match[2]), outputs: fields(match[3]) };
}

/** Every query of every scenario (setup, main and control queries) and every named graph script. */
export function loadCorpus(): CorpusQuery[] {
  const corpus: CorpusQuery[] = [];
  const graphs = new Set<string>();
  for (const scenario of loadScenarios()) {
    const procedures = new Map<string, ProcedureSignature>();
    let parameterNames = new Set<string>();
    let expectedError: CorpusQuery['expectedError'] = null;
    let eitherWay: CorpusQuery['eitherWay'] = null;
    for (const step of scenario.steps) {
      if (step.kind === 'procedure') {
        const signature = parseProcedureSignature(step.signature);
        procedures.set(signature.name, signature);
      } else if (step.kind === 'parameters') parameterNames = new Set(step.parameters.keys());
      else if (step.kind === 'namedGraph') graphs.add(step.name);
      else if (step.kind === 'expectError') {
        if (step.phase === 'compile time') expectedError = { errorType: step.errorType, detail: step.detail };
        if (step.phase === 'any time') eitherWay = { errorType: step.errorType, detail: step.detail };
      }
    }
    for (const step of scenario.steps) {
      if (step.kind === 'setupQuery' || step.kind === 'controlQuery') {
        corpus.push({ id: scenario.id, query: step.query, expectedError: null, eitherWay: null, procedures, parameterNames });
      } else if (step.kind === 'query') {
        corpus.push({ id: scenario.id, query: step.query, expectedError, eitherWay, procedures, parameterNames });
      }
    }
  }
  for (const name of graphs) {
    corpus.push({
      id: `graph:${name}`,
      query: namedGraphScript(name),
      expectedError: null,
      eitherWay: null,
      procedures: new Map(),
      parameterNames: new Set(),
    });
  }
  return corpus;
}
