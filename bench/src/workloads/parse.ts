/**
 * PARSE: parser speed over the openCypher TCK corpus (every query text in test/tck/features),
 * queries parsed per second by graphdb's front end. Queries that the TCK expects to be rejected
 * are included; a thrown syntax error counts as a parse.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from '../context.js';
import { measure } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';

const FEATURES = fileURLToPath(new URL('../../../test/tck/features/', import.meta.url));

function featureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...featureFiles(path));
    else if (entry.endsWith('.feature')) out.push(path);
  }
  return out.sort();
}

/** Every doc-string query of the TCK (setup queries and queries under test). */
export function tckQueries(): string[] {
  const queries: string[] = [];
  for (const file of featureFiles(FEATURES)) {
    const lines = readFileSync(file, 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (!/(executing query|having executed|executing control query):\s*$/.test(lines[i])) continue;
      const open = lines[i + 1]?.trim();
      if (open !== '"""') continue;
      const indent = lines[i + 1].indexOf('"""');
      const body: string[] = [];
      let j = i + 2;
      while (j < lines.length && lines[j].trim() !== '"""') body.push(lines[j++].slice(indent));
      queries.push(body.join('\n'));
      i = j;
    }
  }
  return queries;
}

/** One TCK query and whether the TCK expects it to fail at compile time with a SyntaxError. */
interface CorpusQuery {
  readonly text: string;
  readonly expectSyntaxError: boolean;
}

interface LoaderStep {
  readonly kind: string;
  readonly query?: string;
  readonly errorType?: string;
  readonly phase?: string;
}

/**
 * The corpus through the execution team's TCK loader (test/tck/features.ts: outlines expanded, so
 * `<placeholders>` are filled in); falls back to the raw doc-strings when the loader is missing.
 */
async function corpus(): Promise<{ queries: CorpusQuery[]; source: string }> {
  try {
    const loader = (await import(new URL('../../../test/tck/features.ts', import.meta.url).href)) as {
      loadScenarios(): { steps: readonly LoaderStep[] }[];
    };
    const queries: CorpusQuery[] = [];
    for (const scenario of loader.loadScenarios()) {
      const syntaxError = scenario.steps.some(
        (s) => s.kind === 'expectError' && s.errorType === 'SyntaxError' && s.phase === 'compile time',
      );
      for (const step of scenario.steps) {
        if (step.query === undefined) continue;
        queries.push({ text: step.query, expectSyntaxError: syntaxError && step.kind === 'query' });
      }
    }
    return { queries, source: 'TCK scenarios with outlines expanded' };
  } catch {
    return { queries: tckQueries().map((text) => ({ text, expectSyntaxError: false })), source: 'raw feature doc-strings' };
  }
}

/** Runs the parse micro-benchmark. */
export async function runParseBench(ctx: BenchContext): Promise<WorkloadResult> {
  const loaded = await corpus();
  const queries = loaded.queries.map((q) => q.text);
  const rec = new WorkloadRecorder(
    'PARSE',
    `parse the TCK corpus (${queries.length} queries, ${loaded.source})`,
    'queries/s',
    'informational (no peer; issue 12 parse-speed micro-bench)',
    [],
  );
  const parse = ctx.graphdb.parse;
  if (typeof parse === 'string') {
    rec.pending('graphdb parser', parse);
    return rec.finish();
  }
  let rejected = 0;
  let rejectedAsExpected = 0;
  const expectedRejections = loaded.queries.filter((q) => q.expectSyntaxError).length;
  for (const q of loaded.queries) {
    try {
      parse(q.text);
    } catch {
      rejected++;
      if (q.expectSyntaxError) rejectedAsExpected++;
    }
  }
  const timing = await measure(
    (i) => {
      try {
        parse(queries[i % queries.length]);
      } catch {
        // a rejected query still counts as parsed
      }
    },
    { budgetMs: ctx.profile.budgetMs, warmupOps: queries.length },
  );
  rec.ok(
    'graphdb parser',
    'ours',
    timing,
    `${loaded.source}: ${queries.length - rejected} accepted, ${rejected} rejected ` +
      `(the parser alone rejects ${rejectedAsExpected} of the ${expectedRejections} queries the TCK expects to fail with a compile-time SyntaxError; ` +
      'semantic checks catch the rest)',
  );
  ctx.log(`  PARSE: ${timing.opsPerSec.toFixed(0)} queries/s (${rejected} of ${queries.length} rejected)`);
  return rec.finish();
}
