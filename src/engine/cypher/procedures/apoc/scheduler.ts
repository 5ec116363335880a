/**
 * Background jobs of apoc.periodic.submit / repeat / countdown: each run is its own auto-commit
 * statement on the engine (through `run`), on real timers; jobs live as long as the engine
 * (closing it cancels them) and are listed and cancelled by name.
 */
import { StatusCodes, TransientError } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';

/** Runs one statement as its own transaction; resolves to the first column of the first row. */
export type BackgroundRunner = (database: string, statement: string, parameters: ReadonlyMap<string, CypherValue>) => Promise<CypherValue>;

/** One scheduled job as apoc.periodic.list shows it. */
export interface JobInfo {
  readonly name: string;
  /** Seconds before the first run. */
  readonly delay: number;
  /** Seconds between runs (0: once). */
  readonly rate: number;
  readonly done: boolean;
  readonly cancelled: boolean;
}

interface Job {
  name: string;
  delay: number;
  rate: number;
  done: boolean;
  cancelled: boolean;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  /** The last error of a run, logged into the job (not thrown at anyone). */
  lastError: string | null;
}

/** The job registry of one engine. */
export class ApocScheduler {
  private readonly jobs = new Map<string, Job>();
  private closed = false;

  constructor(private readonly run: BackgroundRunner) {}

  private info(job: Job): JobInfo {
    return { name: job.name, delay: job.delay, rate: job.rate, done: job.done, cancelled: job.cancelled };
  }

  private replace(name: string, delay: number, rate: number): Job {
    const previous = this.jobs.get(name);
    if (previous) this.stop(previous);
    const job: Job = { name, delay, rate, done: false, cancelled: false, timer: null, running: null, lastError: null };
    this.jobs.set(name, job);
    return job;
  }

  private stop(job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
  }

  private execute(job: Job, database: string, statement: string, params: ReadonlyMap<string, CypherValue>): Promise<CypherValue> {
    const running = this.run(database, statement, params).then(
      (value) => {
        job.lastError = null;
        return value;
      },
      (error: unknown) => {
        job.lastError = error instanceof Error ? error.message : String(error);
        return null;
      },
    );
    job.running = running.then(() => undefined);
    return running;
  }

  /** Runs `statement` once, as soon as possible. */
  submit(database: string, name: string, statement: string, params: ReadonlyMap<string, CypherValue>): JobInfo {
    if (this.closed) throw closing();
    const job = this.replace(name, 0, 0);
    job.timer = setTimeout(() => {
      job.timer = null;
      void this.execute(job, database, statement, params).then(() => {
        job.done = true;
      });
    }, 0);
    return this.info(job);
  }

  /** Runs `statement` every `rateSeconds` until cancelled. */
  repeat(database: string, name: string, statement: string, rateSeconds: number, params: ReadonlyMap<string, CypherValue>): JobInfo {
    if (this.closed) throw closing();
    const job = this.replace(name, 0, rateSeconds);
    const tick = (): void => {
      job.timer = null;
      void this.execute(job, database, statement, params).then(() => {
        if (!job.cancelled && !this.closed) job.timer = setTimeout(tick, Math.max(1, rateSeconds * 1000));
      });
    };
    job.timer = setTimeout(tick, Math.max(1, rateSeconds * 1000));
    return this.info(job);
  }

  /** Runs `statement` every `delaySeconds` until its first column returns 0 (or null). */
  countdown(database: string, name: string, statement: string, delaySeconds: number): JobInfo {
    if (this.closed) throw closing();
    const job = this.replace(name, delaySeconds, delaySeconds);
    const tick = (): void => {
      job.timer = null;
      void this.execute(job, database, statement, new Map()).then((value) => {
        const remaining = typeof value === 'bigint' ? value > 0n : typeof value === 'number' ? value > 0 : false;
        if (remaining && !job.cancelled && !this.closed) job.timer = setTimeout(tick, Math.max(1, delaySeconds * 1000));
        else job.done = true;
      });
    };
    job.timer = setTimeout(tick, Math.max(1, delaySeconds * 1000));
    return this.info(job);
  }

  /** Every job, by name. */
  list(): JobInfo[] {
    return [...this.jobs.values()].sort((a, b) => (a.name < b.name ? -1 : 1)).map((j) => this.info(j));
  }

  /** Cancels a job; null when there is none of that name. */
  cancel(name: string): JobInfo | null {
    const job = this.jobs.get(name);
    if (!job) return null;
    this.stop(job);
    job.cancelled = true;
    job.done = true;
    return this.info(job);
  }

  /** Cancels every job and waits for running statements (the engine is closing). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.jobs.values()) {
      this.stop(job);
      job.cancelled = true;
    }
    await Promise.all([...this.jobs.values()].flatMap((j) => (j.running === null ? [] : [j.running])));
  }
}

function closing(): TransientError {
  return new TransientError(StatusCodes.DatabaseUnavailable, 'The database server is shutting down.');
}
