/** What every workload module receives: the profile, the data, the loaded adapters and a logger. */
import type { SocialGraph } from './gen/social.js';
import type { SearchComponents } from './graphdb/search-component.js';
import type { RunningGraphdb } from './graphdb/server.js';
import type { Profile } from './profiles.js';
import type { GraphSubject } from './subject.js';

/** How graphdb can be reached in this run; each field is a reason string when unavailable. */
export interface GraphdbAvailability {
  /** Opens a fresh embedded graphdb in `dir`, or explains why it cannot. */
  readonly embedded: ((dir: string) => Promise<GraphSubject>) | string;
  /** The engine's parser entry point, for the parse micro-benchmark. */
  readonly parse: ((text: string) => unknown) | string;
  /** Starts a Bolt server on an ephemeral port over an embedded database. */
  readonly bolt: ((dir: string) => Promise<{ port: number; stop(): Promise<void> }>) | string;
  /** Starts the whole server (`startServer`: HTTP + Bolt) on ephemeral ports. */
  readonly http: ((dir: string) => Promise<RunningGraphdb>) | string;
  /** Why vector / full-text search is not reachable through Cypher procedures yet (null once it is). */
  readonly search: string | null;
  /** graphdb's search components, measured directly until Cypher reaches them. */
  readonly searchComponents: SearchComponents;
}

/** Shared state for one benchmark run. */
export interface BenchContext {
  readonly profile: Profile;
  /** A temp directory removed at the end of the run. */
  readonly tmp: string;
  readonly graph: SocialGraph;
  readonly graphdb: GraphdbAvailability;
  /** Where graphdb's modules come from (src via tsx, or dist); child processes use the same. */
  readonly engine: 'src' | 'dist';
  /** Workload ids whose graphdb adapter is not run (`--skip-ours`), with the reason to report. */
  readonly skipOurs: ReadonlyMap<string, string>;
  /** Adapters holding the loaded social graph (after G1), ours first. */
  subjects: GraphSubject[];
  log(message: string): void;
}
