/**
 * Output: the console table, `bench/results/<date>.json` (machine described) and
 * `bench/results/<date>.md` (the markdown table the lead copies into docs/PERFORMANCE.md).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Profile } from './profiles.js';
import type { Timing } from './measure.js';
import type { AdapterResult, WorkloadResult } from './report-model.js';

/** The machine a run happened on. */
export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly os: string;
  /** 1/5/15-minute load averages when the results were written (the machine is shared). */
  readonly loadAverage: readonly number[];
}

/** Describes this machine. */
export function describeMachine(): Machine {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()} ${arch()}`,
    loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
  };
}

function fmtRate(x: number): string {
  if (x >= 100_000) return `${(x / 1000).toFixed(0)}k`;
  if (x >= 10_000) return `${(x / 1000).toFixed(1)}k`;
  if (x >= 100) return x.toFixed(0);
  return x.toPrecision(3);
}

function fmtMs(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 1 ? x.toFixed(2) : x.toFixed(3);
}

function fmtTiming(t: Timing, unit = ''): string {
  const rate = `${fmtRate(t.opsPerSec)}${unit ? ' ' + unit : ''}`;
  if (t.wallMs !== undefined) return `${rate} (took ${fmtMs(t.wallMs)} ms)`;
  if (Number.isNaN(t.p50Ms)) return rate;
  return `${rate} (p50 ${fmtMs(t.p50Ms)} ms, p99 ${fmtMs(t.p99Ms)} ms)`;
}

function cell(r: AdapterResult | undefined): string {
  if (!r) return '—';
  if (r.status === 'ok' && r.timing) return fmtTiming(r.timing);
  return r.status;
}

function verdict(w: WorkloadResult): string {
  if (w.pass === null) {
    if (w.pending) return 'pending';
    return w.results.some((r) => r.role === 'ours' && r.status === 'ok') ? 'info' : 'not measured';
  }
  return w.pass ? 'PASS' : 'FAIL';
}

function ratios(w: WorkloadResult): string {
  const parts = w.requirements.map((r) => {
    if (r.ratio === null) return `n/a ${r.against} (need ${r.factor}×)`;
    const median = r.medianRatio === null ? '' : `, by p50 ${r.medianRatio.toFixed(2)}×`;
    return `${r.ratio.toFixed(2)}× ${r.against} (need ${r.factor}×${median})`;
  });
  for (const c of w.checks) parts.push(`${c.name}: ${c.pass ? 'yes' : 'NO'}`);
  return parts.join('; ');
}

/** One markdown row per workload: ours, peers, limits, ratios, agreement, verdict. */
export function markdownTable(results: readonly WorkloadResult[]): string {
  const lines = [
    '| id | workload | unit | graphdb | peers | limits | ratios (need) | answers agree | result |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const w of results) {
    const ours =
      w.results
        .filter((r) => r.role === 'ours')
        .map((r) => `${r.adapter}: ${cell(r)}`)
        .join('<br>') || '—';
    const peers =
      w.results
        .filter((r) => r.role === 'peer')
        .map((r) => `${r.adapter}: ${cell(r)}`)
        .join('<br>') || '—';
    const limits =
      w.results
        .filter((r) => r.role === 'limit')
        .map((r) => `${r.adapter}: ${cell(r)}`)
        .join('<br>') || '—';
    const agree = w.agreement.checked ? (w.agreement.ok ? 'yes' : `**no**: ${w.agreement.detail}`) : w.agreement.detail;
    const result = w.pending ? `pending: ${w.pending}` : verdict(w);
    lines.push(
      `| ${w.id} | ${w.title} | ${w.unit} | ${ours} | ${peers} | ${limits} | ${ratios(w)} | ${agree} | ${result} |`.replace(/\n/g, ' '),
    );
  }
  return lines.join('\n');
}

/** Prints a compact console table. */
export function printTable(results: readonly WorkloadResult[], log: (s: string) => void): void {
  log('');
  for (const w of results) {
    log(`${w.id.padEnd(5)} ${verdict(w).padEnd(12)} ${w.title}`);
    for (const r of w.results) {
      const figure = r.timing ? fmtTiming(r.timing, w.unit) : '';
      const rate =
        r.status === 'ok' ? `${figure}${r.role === 'ours' && r.note ? ` — ${r.note}` : ''}` : `${r.status}${r.note ? ': ' + r.note : ''}`;
      log(`        ${r.role.padEnd(5)} ${r.adapter.padEnd(22)} ${rate}`);
    }
    const rt = ratios(w);
    if (rt) log(`        ratios: ${rt}`);
    if (w.agreement.checked && !w.agreement.ok) log(`        ANSWERS DISAGREE: ${w.agreement.detail}`);
    if (w.plan) log(`        plan: ${w.plan}`);
  }
}

/** Writes the JSON and markdown results; returns their paths. */
export function writeResults(
  dir: string,
  profile: Profile,
  results: readonly WorkloadResult[],
  extra: Record<string, unknown>,
): { json: string; md: string } {
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/:/g, '-').replace(/\..*$/, '');
  const base = join(dir, `${stamp}-${profile.name}`);
  const machine = describeMachine();
  const doc = { date: new Date().toISOString(), profile, machine, ...extra, results };
  writeFileSync(`${base}.json`, JSON.stringify(doc, null, 2) + '\n');
  const passed = results.filter((r) => r.pass === true).length;
  const failed = results.filter((r) => r.pass === false).length;
  const pending = results.filter((r) => r.pass === null).length;
  const md = [
    `# graphdb benchmark — profile \`${profile.name}\` (${new Date().toISOString()})`,
    '',
    `Machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.os}; ` +
      `load average at the end ${machine.loadAverage.join(' / ')} (shared machine: p50 is the most stable figure, throughput includes preemption).`,
    `Data: ${profile.persons} Person nodes, ${profile.relationships} KNOWS relationships (seed ${profile.seed}); ${profile.vectors} × 384-d vectors; ${profile.documents} documents.`,
    `Reproduce: \`npm --prefix bench ci && npm run bench -- ${typeof extra['arguments'] === 'string' ? extra['arguments'] : `--size ${profile.name}`}\`.`,
    `Figures are throughput (higher is better) with per-operation latency; ratios are graphdb ÷ the named adapter in the same run.`,
    '',
    `Summary: ${passed} pass, ${failed} fail, ${pending} pending or not measured.`,
    '',
    markdownTable(results),
    '',
  ].join('\n');
  writeFileSync(`${base}.md`, md);
  return { json: `${base}.json`, md: `${base}.md` };
}
