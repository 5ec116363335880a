/**
 * What the server needs from the engine. The `GraphDB` facade satisfies it (see
 * `createEnginePort` in `src/server/index.ts`); tests of single route groups may pass their own.
 */
import type { SecurityContext, Session, SessionOptions } from '../engine/index.js';

/** Size and content figures of one database. */
export interface DatabaseFigures {
  readonly name: string;
  readonly nodes: number;
  readonly relationships: number;
  readonly dataSizeBytes: number;
}

/** The engine as the server sees it. */
export interface ServerEngine {
  /** Opens a session; `database` defaults to the default database. */
  session(options: SessionOptions): Session;
  /** True when the database (or alias) exists. */
  hasDatabase(name: string): boolean;
  /** True when `name` is a composite database (it stores nothing itself: no write-behind there). */
  isComposite?(name: string): boolean;
  /** The labels and relationship types a constraint of `database` covers (writes creating them are not acknowledged early). */
  constrainedTokens?(database: string): ReadonlySet<string>;
  /** Throws Forbidden unless `security` may run `statement` on `database` (absent: coarse checks only). */
  authorizeStatement?(security: SecurityContext | undefined, database: string, statement: string): void;
  /** Figures of every user database (not `system`). */
  databaseFigures(): readonly DatabaseFigures[];
}
