/**
 * The benchmark run: generate the seeded data, import it into every adapter, run each workload on
 * every adapter that can run it, check their answers agree, print the table and write the results.
 * Started by `bench/run.mjs` (`npm run bench -- [--size smoke|medium|large] [--only G4,P1]`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext } from './context.js';
import { generateSocialGraph } from './gen/social.js';
import { probeGraphdb, type EngineSource } from './graphdb/probe.js';
import { PROFILES } from './profiles.js';
import type { WorkloadResult } from './report-model.js';
import { printTable, writeResults } from './report.js';
import { runLoad } from './workloads/graph-load.js';
import { runReadWorkloads } from './workloads/graph-read.js';
import { runWriteWorkloads } from './workloads/graph-write.js';
import { runIndexSeries } from './workloads/index-series.js';
import { runMemory } from './workloads/memory.js';
import { runOltp } from './workloads/oltp.js';
import { runAiMemory } from './workloads/ai-memory.js';
import { runApocIterate } from './workloads/apoc.js';
import { e1Rows, runEventLoop } from './workloads/event-loop.js';
import { runParseBench } from './workloads/parse.js';
import { runProtocolWorkloads } from './workloads/protocol.js';
import { runSearchWorkloads } from './workloads/search.js';
import { runWriteConcurrency } from './workloads/write-concurrency.js';
import { runReadScaling } from './workloads/read-scaling.js';
import { runScriptImport } from './workloads/script-import.js';

interface Options {
  size: string;
  only: Set<string> | null;
  engine: EngineSource;
  kuzuThreads: number;
  out: string;
  skipOurs: Map<string, string>;
  /** A checkout of an earlier commit whose write path W1 compares against. */
  baseline: string | null;
  /** Rows per maintenance operation in E1 (default: by profile). */
  e1Rows: number | null;
}

function parseArgs(argv: readonly string[]): Options {
  const opts: Options = {
    size: 'smoke',
    only: null,
    engine: 'src',
    kuzuThreads: 1,
    out: fileURLToPath(new URL('../results/', import.meta.url)),
    skipOurs: new Map(),
    baseline: null,
    e1Rows: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--size') opts.size = value();
    else if (arg === '--only')
      opts.only = new Set(
        value()
          .split(',')
          .map((s) => s.trim().toUpperCase()),
      );
    else if (arg === '--engine') opts.engine = value() === 'dist' ? 'dist' : 'src';
    else if (arg === '--kuzu-threads') opts.kuzuThreads = Number(value());
    else if (arg === '--out') opts.out = value();
    else if (arg === '--baseline') opts.baseline = value();
    else if (arg === '--e1-rows') opts.e1Rows = Number(value());
    else if (arg === '--skip-ours') {
      for (const id of value().split(',')) {
        opts.skipOurs.set(
          id.trim().toUpperCase(),
          'not run (--skip-ours): at this size the query did not finish in an earlier run and ignores the statement timeout',
        );
      }
    } else if (arg === '--help' || arg === '-h') {
      console.log(
        'npm run bench -- [--size smoke|medium|large|default] [--only G1,G4,P1,...] [--engine src|dist] [--kuzu-threads N] [--out DIR] [--skip-ours G7,...] [--baseline DIR] [--e1-rows N]',
      );
      process.exit(0);
    } else throw new Error(`unknown option ${arg}`);
  }
  if (!PROFILES[opts.size]) throw new Error(`unknown size ${opts.size}; one of ${Object.keys(PROFILES).join(', ')}`);
  return opts;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const profile = PROFILES[opts.size];
  const log = (m: string): void => console.log(m);
  const wanted = (id: string): boolean => !opts.only || [...opts.only].some((o) => id.toUpperCase().startsWith(o));
  const tmp = mkdtempSync(join(tmpdir(), 'graphdb-bench-'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      rmSync(tmp, { recursive: true, force: true });
      process.exit(130);
    });
  }
  const results: WorkloadResult[] = [];
  try {
    log(
      `graphdb bench — profile ${profile.name}: ${profile.persons} persons, ${profile.relationships} relationships (seed ${profile.seed})`,
    );
    const graphdb = await probeGraphdb(opts.engine);
    for (const [k, v] of Object.entries(graphdb)) if (typeof v === 'string') log(`  graphdb ${k}: pending — ${v}`);
    let t = performance.now();
    const graph = generateSocialGraph(profile.seed, profile.persons, profile.relationships);
    log(`generated social graph in ${(performance.now() - t).toFixed(0)} ms`);
    const ctx: BenchContext = { profile, tmp, graph, graphdb, engine: opts.engine, skipOurs: opts.skipOurs, subjects: [], log };

    const graphIds = ['G1', 'G2', 'G3', 'G4', 'G5', 'G6', 'G7', 'G8', 'G9', 'G10', 'M1'];
    if (graphIds.some(wanted)) {
      log('G1 bulk import');
      results.push(await runLoad(ctx, { kuzuThreads: opts.kuzuThreads }));
      if (['G4', 'G5', 'G6', 'G7', 'G8', 'G9'].some(wanted)) {
        results.push(...(await runReadWorkloads(ctx)).filter((r) => wanted(r.id)));
      }
      if (['G2', 'G3'].some(wanted)) results.push(...(await runWriteWorkloads(ctx)).filter((r) => wanted(r.id)));
      if (wanted('G10')) results.push(...(await runOltp(ctx)));
      if (wanted('M1')) results.push(...(await runMemory(ctx)));
      for (const s of ctx.subjects) await s.close().catch(() => undefined);
      ctx.subjects = [];
    }
    if (wanted('G4S')) results.push(...(await runIndexSeries(ctx)));
    if (['P1', 'P2', 'P3'].some(wanted)) results.push(...(await runProtocolWorkloads(ctx)).filter((r) => wanted(r.id)));
    if (['V1', 'V2', 'V3', 'B1', 'B2', 'H1'].some(wanted)) {
      t = performance.now();
      results.push(...(await runSearchWorkloads(ctx, wanted)).filter((r) => wanted(r.id)));
      log(`search workloads in ${(performance.now() - t).toFixed(0)} ms`);
    }
    if (wanted('PARSE')) results.push(await runParseBench(ctx));
    if (wanted('W1')) results.push(...(await runWriteConcurrency(ctx, opts.baseline)));
    if (wanted('RS')) results.push(...(await runReadScaling(ctx)));
    if (wanted('MEM')) results.push(await runAiMemory(ctx));
    if (wanted('A1')) results.push(...(await runApocIterate(ctx)));
    if (wanted('C1')) results.push(...runScriptImport(ctx));
    if (wanted('E1')) results.push(...runEventLoop(ctx, opts.e1Rows ?? e1Rows(profile.name)));

    printTable(results, log);
    const paths = writeResults(opts.out, profile, results, {
      arguments: process.argv.slice(2).join(' ') || `--size ${profile.name}`,
      engine: opts.engine,
      kuzuThreads: opts.kuzuThreads,
    });
    log(`\nwrote ${paths.json}\nwrote ${paths.md}`);
    const disagree = results.filter((r) => r.agreement.checked && !r.agreement.ok);
    if (disagree.length) {
      log(`answers disagree on: ${disagree.map((r) => r.id).join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
