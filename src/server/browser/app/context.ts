/** What every page of the app shares: the server, the principal, its clients and the chosen database. */
import type { Api, Principal, ServerInfo } from './api.js';
import type { Bolt } from './bolt.js';
import type { QueryHistory } from './history.js';
import type { LabelStyles } from './styles-by-label.js';

/** The shared state of a logged-in app. */
export class AppContext {
  private current: string;
  private readonly listeners = new Set<(database: string) => void>();
  /** Set by the query page: puts a statement in the editor and runs it. */
  runQuery: (statement: string, parameters?: Record<string, unknown>) => void = () => undefined;

  constructor(
    readonly info: ServerInfo,
    readonly principal: Principal,
    readonly api: Api,
    readonly bolt: Bolt,
    readonly history: QueryHistory,
    readonly styles: LabelStyles,
    database: string,
  ) {
    this.current = database;
  }

  /** The database queries run on. */
  get database(): string {
    return this.current;
  }

  set database(name: string) {
    if (name === this.current) return;
    this.current = name;
    for (const listener of this.listeners) listener(name);
  }

  /** Calls `listener` when the database changes. */
  onDatabaseChange(listener: (database: string) => void): void {
    this.listeners.add(listener);
  }
}
