/** Benchmark sizes. `smoke` checks the harness in minutes; `large` is BENCH.md's "default" profile. */

/** One size profile. */
export interface Profile {
  readonly name: string;
  readonly seed: number;
  readonly persons: number;
  readonly relationships: number;
  /** Time budget per adapter per timed workload. */
  readonly budgetMs: number;
  /** Inputs whose answers every adapter must agree on. */
  readonly sampleSize: number;
  readonly vectors: number;
  readonly vectorQueries: number;
  readonly documents: number;
  readonly textQueries: number;
  /** Node counts of the G4 index-lookup series (issue 4: flat from 10k to 1M). */
  readonly seriesSizes: readonly number[];
  /** Concurrent connections for the protocol workloads. */
  readonly connections: readonly number[];
}

const smoke: Profile = {
  name: 'smoke',
  seed: 42,
  persons: 10_000,
  relationships: 50_000,
  budgetMs: 700,
  sampleSize: 20,
  vectors: 10_000,
  vectorQueries: 50,
  documents: 20_000,
  textQueries: 50,
  seriesSizes: [1_000, 10_000, 100_000],
  connections: [1, 4, 16],
};

const medium: Profile = {
  ...smoke,
  name: 'medium',
  persons: 100_000,
  relationships: 1_000_000,
  budgetMs: 2_000,
  vectors: 100_000,
  vectorQueries: 100,
  documents: 100_000,
  textQueries: 100,
  seriesSizes: [10_000, 100_000, 1_000_000],
};

const large: Profile = {
  ...medium,
  name: 'large',
  persons: 1_000_000,
  relationships: 5_000_000,
  budgetMs: 3_000,
  documents: 1_000_000,
};

/** Profiles by name; `default` is BENCH.md's name for the 1M/5M profile. */
export const PROFILES: Readonly<Record<string, Profile>> = { smoke, medium, large, default: large };
