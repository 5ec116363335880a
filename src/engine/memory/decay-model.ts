/**
 * The memory decay model (docs/ai-memory.md): a score in [0, 1] computed on read from a memory's
 * timestamps, access count and importance:
 *
 *   score = wr * 0.5^(age / halfLife) + wf * frequency(accessCount) + wi * importance
 *
 * where `age` is the time since the last access (or creation), `halfLife` comes from the first
 * profile label the node carries (`episodic=7d`, `semantic=69d`, ...) or, without one, from
 * `decay_rate` (a daily rate), and the weights are normalised to sum 1. `no_decay: true` and a
 * half-life of 0 score 1. Nothing here reads a clock: callers pass `now`.
 */
import { ConfigError } from '../config/errors.js';
import { parseDuration } from '../config/duration.js';
import type { MemoryDecaySettings } from '../config/types.js';
import { UNINDEXED_LABEL } from '../search/search-types.js';

/** Label of archived memories (kept, readable by id, out of the search indexes). */
export const ARCHIVED_LABEL = UNINDEXED_LABEL;
/** Name of the profile of memories that carry no profile label. */
export const DEFAULT_PROFILE = 'default';
/** Accesses at which the frequency component reaches 1. */
export const FREQUENCY_SATURATION = 32;
const DAY_MS = 86_400_000;

/** One half-life profile. */
export interface DecayProfile {
  /** Profile name as configured (matched against labels case-insensitively). */
  readonly name: string;
  /** Milliseconds; 0 = never decays. */
  readonly halfLifeMs: number;
}

/** What the score is computed from. */
export interface DecayInputs {
  readonly labels: readonly string[];
  /** Epoch milliseconds of creation, or null when unknown. */
  readonly createdAt: number | null;
  /** Epoch milliseconds of the last access, or null. */
  readonly lastAccessedAt: number | null;
  readonly accessCount: number;
  /** 0..1; default 0.5. */
  readonly importance: number | null;
  readonly noDecay: boolean;
}

/** The parts of a score. */
export interface DecayBreakdown {
  readonly score: number;
  readonly recency: number;
  readonly frequency: number;
  readonly importance: number;
  readonly profile: string;
  readonly halfLifeMs: number;
}

/** The settings in the form the model uses. */
export class DecayModel {
  readonly profiles: readonly DecayProfile[];
  readonly defaultHalfLifeMs: number;
  private readonly byLabel: ReadonlyMap<string, DecayProfile>;
  private readonly weights: { readonly recency: number; readonly frequency: number; readonly importance: number };

  constructor(readonly settings: MemoryDecaySettings) {
    this.profiles = settings.half_lives.map(parseProfile);
    this.byLabel = new Map(this.profiles.map((profile) => [profile.name.toLowerCase(), profile]));
    this.defaultHalfLifeMs = settings.decay_rate <= 0 ? 0 : (Math.LN2 / -Math.log(1 - settings.decay_rate)) * DAY_MS;
    const total = settings.recency_weight + settings.frequency_weight + settings.importance_weight;
    if (total <= 0)
      throw new ConfigError(
        'memory_decay: recency_weight, frequency_weight and importance_weight must not all be 0',
        'memory_decay.recency_weight',
        'settings',
      );
    this.weights = {
      recency: settings.recency_weight / total,
      frequency: settings.frequency_weight / total,
      importance: settings.importance_weight / total,
    };
  }

  /** The profile of a node with these labels (the first configured profile it carries). */
  profileOf(labels: readonly string[]): DecayProfile {
    for (const label of labels) {
      const profile = this.byLabel.get(label.toLowerCase());
      if (profile !== undefined) return profile;
    }
    return { name: DEFAULT_PROFILE, halfLifeMs: this.defaultHalfLifeMs };
  }

  /** The score of a memory at `now` (epoch milliseconds). */
  score(inputs: DecayInputs, now: number): DecayBreakdown {
    const profile = this.profileOf(inputs.labels);
    const importance = clamp01(inputs.importance ?? 0.5);
    const frequency = Math.min(1, Math.log2(1 + Math.max(0, inputs.accessCount)) / Math.log2(1 + FREQUENCY_SATURATION));
    const since = inputs.lastAccessedAt ?? inputs.createdAt;
    let recency = 1;
    if (!inputs.noDecay && profile.halfLifeMs > 0 && since !== null) {
      recency = Math.pow(0.5, Math.max(0, now - since) / profile.halfLifeMs);
    }
    const score =
      inputs.noDecay || profile.halfLifeMs === 0
        ? 1
        : this.weights.recency * recency + this.weights.frequency * frequency + this.weights.importance * importance;
    return { score: clamp01(score), recency, frequency, importance, profile: profile.name, halfLifeMs: profile.halfLifeMs };
  }
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

function parseProfile(entry: string): DecayProfile {
  const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[=:]\s*(\S+)\s*$/.exec(entry);
  if (match === null) {
    throw new ConfigError(
      `memory_decay.half_lives entry "${entry}" must be label=duration, e.g. episodic=7d`,
      'memory_decay.half_lives',
      'settings',
    );
  }
  const halfLifeMs = parseDuration(match[2]!);
  if (halfLifeMs === null || !Number.isFinite(halfLifeMs)) {
    throw new ConfigError(`memory_decay.half_lives entry "${entry}" has an invalid duration`, 'memory_decay.half_lives', 'settings');
  }
  return { name: match[1]!, halfLifeMs };
}
