/**
 * `MemoryDecay`: the decay model with its clock, the periodic recalculation (`memory_decay.enabled`,
 * every `recalculate_interval`) that archives memories whose score fell below
 * `archive_threshold`, explicit archive/restore, and statistics (`GET /graphdb/decay`,
 * `graphdb decay stats`). Scores are never stored as the truth: they are computed on read by
 * `decayScore(n)`; a pass only records `decay_score` on the memories it archives. Archived
 * memories keep every property and relationship; the `Archived` label keeps them out of the
 * automatic search indexes (see search/database-search.ts) until an access restores them.
 */
import { formatDuration } from '../config/duration.js';
import type { MemoryDecaySettings } from '../config/types.js';
import type { CypherValue } from '../values/types.js';
import type { CypherRunner } from './cypher-runner.js';
import { ARCHIVED_LABEL, DecayModel } from './decay-model.js';

const MEMORY = 'Memory';
const WRITE_BATCH = 500;

/** Interval timers (injectable for tests). */
export interface DecayTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** Options of `MemoryDecay`. */
export interface MemoryDecayOptions {
  readonly settings: MemoryDecaySettings;
  /** Epoch milliseconds; default `Date.now`. */
  readonly now?: () => number;
  readonly timers?: DecayTimers;
}

/** What one recalculation pass did in one database. */
export interface RecalculationResult {
  readonly database: string;
  readonly at: string;
  readonly scanned: number;
  readonly archived: number;
  readonly alreadyArchived: number;
  readonly noDecay: number;
  readonly averageScore: number | null;
  readonly threshold: number;
}

const nodeTimers: DecayTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

function days(ms: number): string {
  return ms === 0 ? 'never' : ms >= 86_400_000 ? `${Number((ms / 86_400_000).toFixed(2))}d` : formatDuration(ms);
}

/** Memory decay of one process. */
export class MemoryDecay {
  readonly model: DecayModel;
  readonly now: () => number;
  private readonly timers: DecayTimers;
  private timer: unknown = null;
  private running: Promise<void> | null = null;
  private readonly lastRuns = new Map<string, RecalculationResult>();

  constructor(options: MemoryDecayOptions) {
    this.model = new DecayModel(options.settings);
    this.now = options.now ?? Date.now;
    this.timers = options.timers ?? nodeTimers;
  }

  get settings(): MemoryDecaySettings {
    return this.model.settings;
  }

  /** Share of the decay score in search ranking: `search_weight` when enabled, else 0. */
  get searchWeight(): number {
    return this.settings.enabled ? this.settings.search_weight : 0;
  }

  /** Starts the periodic pass when enabled (no-op otherwise); `job` runs one pass over every database. */
  start(job: () => Promise<void>): boolean {
    if (!this.settings.enabled || this.timer !== null || this.settings.recalculate_interval <= 0) return false;
    this.timer = this.timers.setInterval(() => {
      if (this.running !== null) return;
      this.running = job().finally(() => {
        this.running = null;
      });
    }, this.settings.recalculate_interval);
    return true;
  }

  /** Stops the periodic pass and waits for a running one. */
  async stop(): Promise<void> {
    if (this.timer !== null) this.timers.clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }

  /** The last pass over `database`, or null. */
  lastRun(database: string): RecalculationResult | null {
    return this.lastRuns.get(database) ?? null;
  }

  /** Scores every memory now; with `archive`, archives those below the threshold. */
  async recalculate(
    runner: CypherRunner,
    database: string,
    options: { archive: boolean; threshold?: number },
  ): Promise<RecalculationResult> {
    const threshold = options.threshold ?? this.settings.archive_threshold;
    const now = this.now();
    const { rows } = await runner.run(
      `MATCH (m:${MEMORY}) RETURN id(m), decayScore(m), m:${ARCHIVED_LABEL}, coalesce(m.no_decay, false) = true`,
      new Map(),
      { mode: 'READ' },
    );
    let alreadyArchived = 0;
    let noDecay = 0;
    let total = 0;
    const due: [bigint, number][] = [];
    for (const [id, score, archived, pinned] of rows) {
      total += score as number;
      if (archived === true) alreadyArchived++;
      else if (pinned === true) noDecay++;
      else if ((score as number) < threshold) due.push([id as bigint, score as number]);
    }
    if (options.archive) await this.archiveIds(runner, due, now);
    const result: RecalculationResult = {
      database,
      at: new Date(now).toISOString(),
      scanned: rows.length,
      archived: options.archive ? due.length : 0,
      alreadyArchived,
      noDecay,
      averageScore: rows.length === 0 ? null : Math.round((total / rows.length) * 1000) / 1000,
      threshold,
    };
    this.lastRuns.set(database, result);
    return result;
  }

  private async archiveIds(runner: CypherRunner, due: readonly (readonly [bigint, number])[], now: number): Promise<void> {
    for (let start = 0; start < due.length; start += WRITE_BATCH) {
      const batch = due.slice(start, start + WRITE_BATCH);
      await runner.run(
        `UNWIND $batch AS entry MATCH (m:${MEMORY}) WHERE id(m) = entry[0] AND NOT coalesce(m.no_decay, false) ` +
          `SET m:${ARCHIVED_LABEL}, m.archived_at = datetime({epochMillis: $now}), m.decay_score = entry[1]`,
        new Map<string, CypherValue>([
          ['batch', batch.map(([id, score]) => [id, score])],
          ['now', BigInt(now)],
        ]),
      );
    }
  }

  /** Archives (or with `restore`, un-archives) the given memories; returns how many changed. */
  async setArchived(runner: CypherRunner, ids: readonly bigint[], restore: boolean): Promise<number> {
    const { rows } = await runner.run(
      restore
        ? `MATCH (m:${MEMORY}:${ARCHIVED_LABEL}) WHERE id(m) IN $ids REMOVE m:${ARCHIVED_LABEL} SET m.last_accessed = datetime({epochMillis: $now}) RETURN count(*)`
        : `MATCH (m:${MEMORY}) WHERE id(m) IN $ids AND NOT m:${ARCHIVED_LABEL} SET m:${ARCHIVED_LABEL}, m.archived_at = datetime({epochMillis: $now}), m.decay_score = decayScore(m) RETURN count(*)`,
      new Map<string, CypherValue>([
        ['ids', [...ids]],
        ['now', BigInt(this.now())],
      ]),
    );
    return Number(rows[0]?.[0] ?? 0n);
  }

  /** Statistics of one database (the `GET /graphdb/decay` body). */
  async stats(runner: CypherRunner, database: string): Promise<Record<string, unknown>> {
    const threshold = this.settings.archive_threshold;
    const params = new Map<string, CypherValue>([['threshold', threshold]]);
    const { rows } = await runner.run(
      `MATCH (m:${MEMORY}) WITH m, decayScore(m) AS s, decayProfile(m) AS profile, m:${ARCHIVED_LABEL} AS archived ` +
        'RETURN profile, count(*), sum(CASE WHEN archived THEN 1 ELSE 0 END), sum(CASE WHEN coalesce(m.no_decay, false) = true THEN 1 ELSE 0 END), ' +
        'sum(CASE WHEN NOT archived AND s < $threshold THEN 1 ELSE 0 END), avg(s), min(s), max(s) ORDER BY profile',
      params,
      { mode: 'READ' },
    );
    const { rows: buckets } = await runner.run(
      `MATCH (m:${MEMORY}) WHERE NOT m:${ARCHIVED_LABEL} WITH CASE WHEN decayScore(m) >= 1.0 THEN 9 ELSE toInteger(floor(decayScore(m) * 10)) END AS bucket ` +
        'RETURN bucket, count(*) ORDER BY bucket',
      new Map(),
      { mode: 'READ' },
    );
    const round = (value: CypherValue | undefined) => (typeof value === 'number' ? Math.round(value * 1000) / 1000 : null);
    const count = (value: CypherValue | undefined) => Number(value ?? 0n);
    const halfLives = new Map(this.model.profiles.map((profile) => [profile.name, profile.halfLifeMs]));
    const profiles = rows.map((row) => ({
      profile: row[0] as string,
      half_life: days(halfLives.get(row[0] as string) ?? this.model.defaultHalfLifeMs),
      memories: count(row[1]),
      archived: count(row[2]),
      no_decay: count(row[3]),
      below_threshold: count(row[4]),
      average_score: round(row[5]),
      min_score: round(row[6]),
      max_score: round(row[7]),
    }));
    const sum = (key: 'memories' | 'archived' | 'no_decay' | 'below_threshold') =>
      profiles.reduce((total, profile) => total + profile[key], 0);
    const settings = this.settings;
    return {
      database,
      enabled: settings.enabled,
      now: new Date(this.now()).toISOString(),
      settings: {
        recalculate_interval: formatDuration(settings.recalculate_interval),
        decay_rate: settings.decay_rate,
        default_half_life: days(this.model.defaultHalfLifeMs),
        half_lives: Object.fromEntries(this.model.profiles.map((profile) => [profile.name, days(profile.halfLifeMs)])),
        archive_threshold: threshold,
        weights: { recency: settings.recency_weight, frequency: settings.frequency_weight, importance: settings.importance_weight },
        search_weight: this.searchWeight,
      },
      memories: {
        total: sum('memories'),
        active: sum('memories') - sum('archived'),
        archived: sum('archived'),
        no_decay: sum('no_decay'),
        below_threshold: sum('below_threshold'),
      },
      profiles,
      histogram: buckets.map((row) => ({
        range: `${(count(row[0]) / 10).toFixed(1)}-${((count(row[0]) + 1) / 10).toFixed(1)}`,
        memories: count(row[1]),
      })),
      last_recalculation: this.lastRun(database),
    };
  }
}
