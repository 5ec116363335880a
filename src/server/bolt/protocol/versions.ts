/**
 * Bolt protocol versions this server speaks, and the features each one switches on.
 * A newer version is the previous one plus a few differences (as the driver's
 * `bolt-protocol-v5x7.js` extends `v5x6`), so features are predicates on the version.
 */
export interface BoltVersion {
  readonly major: number;
  readonly minor: number;
}

/**
 * Supported versions, newest first: 6.0, 5.8-5.6, 5.4-5.0 and 4.4. Bolt 5.5 was never released
 * and no server may negotiate it; 6.0 is 5.8's messages plus the Vector structure.
 */
export const SUPPORTED_VERSIONS: readonly BoltVersion[] = [
  { major: 6, minor: 0 },
  ...[8, 7, 6, 4, 3, 2, 1, 0].map((minor) => ({ major: 5, minor })),
  { major: 4, minor: 4 },
];

/** `5.8`. */
export function formatVersion(version: BoltVersion): string {
  return `${version.major}.${version.minor}`;
}

/** True when `version` is at least `major.minor`. */
export function atLeast(version: BoltVersion, major: number, minor: number): boolean {
  return version.major > major || (version.major === major && version.minor >= minor);
}

/** True when `version` is in `supported` (default: every version this server speaks). */
export function isSupported(version: BoltVersion, supported: readonly BoltVersion[] = SUPPORTED_VERSIONS): boolean {
  return supported.some((v) => v.major === version.major && v.minor === version.minor);
}

/** Keeps the requested versions this server speaks, newest first. */
export function restrictVersions(requested: readonly BoltVersion[] | undefined): readonly BoltVersion[] {
  if (!requested) return SUPPORTED_VERSIONS;
  return SUPPORTED_VERSIONS.filter((v) => requested.some((r) => r.major === v.major && r.minor === v.minor));
}

/** Protocol features, derived once per connection from the negotiated version. */
export interface ProtocolFeatures {
  readonly version: BoltVersion;
  /** Nodes and relationships carry element ids (5.0+). */
  readonly elementIds: boolean;
  /** Authentication moved from HELLO to LOGON/LOGOFF (5.1+). */
  readonly logon: boolean;
  /** TELEMETRY message (5.4+). */
  readonly telemetry: boolean;
  /** Summaries carry GQL `statuses` instead of `notifications` (5.5+). */
  readonly gqlStatuses: boolean;
  /** FAILURE carries `gql_status`, `description`, `neo4j_code`, `diagnostic_record` (5.7+). */
  readonly gqlErrors: boolean;
  /** RUN and BEGIN successes name the resolved database (5.8+). */
  readonly reportsDatabase: boolean;
  /** The Vector structure exists (6.0+). */
  readonly vectors: boolean;
}

/** Features of a version; `utcPatch` is the 4.4 `patch_bolt: ["utc"]` negotiated in HELLO. */
export function featuresOf(version: BoltVersion): ProtocolFeatures {
  return {
    version,
    elementIds: atLeast(version, 5, 0),
    logon: atLeast(version, 5, 1),
    telemetry: atLeast(version, 5, 4),
    gqlStatuses: atLeast(version, 5, 5),
    gqlErrors: atLeast(version, 5, 7),
    reportsDatabase: atLeast(version, 5, 8),
    vectors: atLeast(version, 6, 0),
  };
}
