/**
 * What a statement on a composite database reaches: its constituents, each read on a snapshot of
 * the standard database it targets (or on the transaction's writer, for the one constituent the
 * transaction writes), and a graph of its own that refuses every access (a composite stores no
 * data, so a query part without `USE` may only compute over values).
 */
import { ClientError, EntityNotFound, SemanticError, StatusCodes } from '../../errors/index.js';
import { constituentName, type ConstituentEntry } from '../../catalog/composite-catalog.js';
import type { Query, Statement } from '../../cypher/ast/index.js';
import { Kind } from '../../cypher/ast/index.js';
import type { ConstituentGraph, GraphSource } from '../../cypher/runtime/graph-source.js';
import type { GraphReader, GraphWriter, WriteCounters } from '../../storage/graph-store.js';
import type { CypherMap, CypherValue } from '../../values/types.js';
import { authorizeStatement } from '../authorize-statement.js';
import { materialize } from '../materialize.js';
import type { EngineServices } from '../statement-execution.js';
import type { SecurityContext } from '../types.js';

/** Thrown when a statement first needs to write a constituent: the transaction opens its writer and runs the statement again. */
export class ConstituentWriteRequired extends Error {
  constructor(
    /** Qualified name (`composite.alias`). */
    readonly constituent: string,
    readonly database: string,
  ) {
    super(`write to ${constituent}`);
  }
}

/** Neo4j's error for a second written constituent in one transaction. */
export function secondWriteError(attempted: string, current: string): ClientError {
  return new ClientError(
    StatusCodes.AccessMode,
    `Writing to more than one database per transaction is not allowed. Attempted write to ${attempted}, currently writing to ${current}`,
  );
}

/** Neo4j's error for a composite database or constituent named from a session not connected to that composite. */
export function compositeAccessError(accessed: string, session: string): SemanticError {
  return new SemanticError(
    `Accessing a composite database and its constituents is only allowed when connected to it. Attempted to access '${accessed}' while connected to '${session}'`,
  );
}

/** Neo4j's error for a graph that is not a constituent of the session's composite database. */
export function outsideCompositeError(accessed: string, composite: string): SemanticError {
  return new SemanticError(
    `When connected to a composite database, access is allowed only to its constituents. Attempted to access '${accessed}' while connected to '${composite}'`,
  );
}

/** The error of any graph access outside a `USE` of a constituent. */
export function compositeGraphError(composite: string): SemanticError {
  return new SemanticError(
    `Accessing a graph is not supported on composite databases. Select a constituent of '${composite}' with USE, for example USE ${composite}.<alias> or CALL { USE graph.byName(name) ... }.`,
  );
}

/**
 * A reader (or writer) that refuses every call: the composite's own, empty, graph. A writer's
 * `counters` are those of the written constituent (`counters`), so the statement reports its writes.
 */
export function refusingGraph<T extends GraphReader | GraphWriter>(composite: string, counters?: () => WriteCounters): T {
  return new Proxy({} as T, {
    get(_target, property) {
      if (property === 'counters' && counters !== undefined) return counters();
      if (property === 'then') return undefined;
      return () => {
        throw compositeGraphError(composite);
      };
    },
  });
}

/** What the graph source needs from its transaction. */
export interface ConstituentHost {
  readonly composite: string;
  readonly services: EngineServices;
  readonly security: SecurityContext | undefined;
  constituents(): readonly ConstituentEntry[];
  /** The reader of a constituent's database for this statement (the writer when it is the written one). */
  readerFor(database: string): GraphReader;
  /** The writer of `database` when it is the transaction's written constituent and active, else null. */
  writerFor(database: string): GraphWriter | null;
}

/** The constituents of one statement on a composite database. */
export class CompositeGraphs implements GraphSource {
  /** Subqueries already authorized, per target database. */
  private readonly authorized = new WeakMap<Query, Set<string>>();

  constructor(private readonly host: ConstituentHost) {}

  names(): readonly string[] {
    return this.accessible().map(constituentName);
  }

  properties(name: string): CypherMap | null {
    const entry = this.accessible().find((c) => constituentName(c) === name.toLowerCase());
    return entry === undefined ? null : new Map(entry.properties);
  }

  byElementId(elementId: string): string {
    for (const entry of this.accessible()) {
      if (this.host.readerFor(entry.target).idFromElementId(elementId) !== null) return constituentName(entry);
    }
    throw new EntityNotFound(`No constituent of '${this.host.composite}' holds the element '${elementId}'.`);
  }

  open(name: string, query: Query, writes: boolean): ConstituentGraph {
    const entry = this.constituent(name);
    this.authorize(entry.target, query);
    let writer: GraphWriter | null = null;
    if (writes) {
      writer = this.host.writerFor(entry.target);
      if (writer === null) throw new ConstituentWriteRequired(constituentName(entry), entry.target);
    }
    const reader = writer ?? this.host.readerFor(entry.target);
    return {
      database: entry.target,
      reader,
      writer,
      materialize: (value: CypherValue) => materialize(value, reader),
    };
  }

  /** The constituent `name` designates (a composite's own name is not a constituent). */
  constituent(name: string): ConstituentEntry {
    const lower = name.toLowerCase();
    const entry = this.host.constituents().find((c) => constituentName(c) === lower);
    if (entry !== undefined) return entry;
    if (lower === this.host.composite) throw compositeGraphError(this.host.composite);
    throw outsideCompositeError(name, this.host.composite);
  }

  private authorize(database: string, query: Query): void {
    let done = this.authorized.get(query);
    if (done?.has(database) === true) return;
    const statement: Statement = { kind: Kind.Statement, cypherVersion: null, options: [], explain: null, body: query };
    authorizeStatement(this.host.security, database, statement, this.host.services.admin.procedures);
    if (done === undefined) this.authorized.set(query, (done = new Set()));
    done.add(database);
  }

  /** The constituents whose database the user may access (`graph.names()` lists only those). */
  private accessible(): ConstituentEntry[] {
    const security = this.host.security;
    return this.host.constituents().filter((entry) => {
      if (security?.authorizeAccess === undefined) return true;
      try {
        security.authorizeAccess(entry.target, { needsDatabaseAccess: true, requirements: [] });
        return true;
      } catch {
        return false;
      }
    });
  }
}
