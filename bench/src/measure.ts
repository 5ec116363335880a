/**
 * Timing: run an operation repeatedly for a time budget, record each latency, report throughput and
 * p50/p99. Synchronous operations are not awaited, so raw-substrate limits pay no promise overhead.
 */

/** Throughput and latency of one adapter on one workload. */
export interface Timing {
  readonly ops: number;
  readonly seconds: number;
  readonly opsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Set for one-shot operations (imports, builds): their total wall time; p50/p99 are then NaN. */
  readonly wallMs?: number;
}

/** How long and how often to run an operation. */
export interface MeasureOptions {
  /** Stop after this many milliseconds (after at least `minOps`). */
  readonly budgetMs: number;
  readonly minOps?: number;
  readonly maxOps?: number;
  /** Untimed warm-up operations. */
  readonly warmupOps?: number;
}

/** An operation; `i` is the iteration number (callers pick their input with it). */
export type Operation = (i: number) => unknown;

function isPromise(x: unknown): x is Promise<unknown> {
  return typeof x === 'object' && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

/** Runs `op` sequentially within the budget and returns its timing. */
export async function measure(op: Operation, options: MeasureOptions): Promise<Timing> {
  const warmup = options.warmupOps ?? 3;
  for (let i = 0; i < warmup; i++) {
    const r = op(i);
    if (isPromise(r)) await r;
  }
  const minOps = options.minOps ?? 5;
  const maxOps = options.maxOps ?? Number.MAX_SAFE_INTEGER;
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(options.budgetMs * 1e6));
  let now = start;
  let i = 0;
  while (i < maxOps && (i < minOps || now < deadline)) {
    const t0 = now;
    const r = op(warmup + i);
    if (isPromise(r)) await r;
    now = process.hrtime.bigint();
    latencies.push(Number(now - t0) / 1e6);
    i++;
  }
  return summarize(latencies, Number(now - start) / 1e9);
}

/**
 * Runs `op` from `clients` concurrent loops (for network workloads) within the budget; latency is
 * per operation, throughput is total operations over wall time.
 */
export async function measureConcurrent(
  op: (client: number, i: number) => Promise<unknown>,
  clients: number,
  options: MeasureOptions,
): Promise<Timing> {
  const warmup = options.warmupOps ?? 3;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let i = 0; i < warmup; i++) await op(c, i);
    }),
  );
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(options.budgetMs * 1e6));
  const minPerClient = Math.ceil((options.minOps ?? 5) / clients);
  let end = start;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      let i = 0;
      for (;;) {
        const t0 = process.hrtime.bigint();
        if (i >= minPerClient && t0 >= deadline) break;
        await op(c, warmup + i);
        const t1 = process.hrtime.bigint();
        latencies.push(Number(t1 - t0) / 1e6);
        if (t1 > end) end = t1;
        i++;
      }
    }),
  );
  return summarize(latencies, Number(end - start) / 1e9);
}

/** Times a single (long) operation once: for bulk loads and full scans. */
export async function timeOnce(op: () => unknown): Promise<number> {
  const t0 = process.hrtime.bigint();
  const r = op();
  if (isPromise(r)) await r;
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

/** Timing of items processed by one operation that took `ms` (e.g. rows imported). */
export function throughputOf(items: number, ms: number): Timing {
  return { ops: items, seconds: ms / 1000, opsPerSec: items / (ms / 1000), p50Ms: NaN, p99Ms: NaN, wallMs: ms };
}

/** Throughput and percentiles of `latencies` (ms) measured over `seconds`. */
export function summarize(latencies: number[], seconds: number): Timing {
  const sorted = Float64Array.from(latencies).sort();
  const pick = (q: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] : NaN);
  return { ops: latencies.length, seconds, opsPerSec: latencies.length / seconds, p50Ms: pick(0.5), p99Ms: pick(0.99) };
}
