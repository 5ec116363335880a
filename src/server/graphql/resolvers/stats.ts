/**
 * `Query.stats`: each `Stats` field is computed only when the operation selects it. A small
 * dashboard query (`{ stats { nodeCount relationshipCount } }`) reads the database's committed
 * counters (`databaseServices.counts`); label counts (`GraphDB.stats`), embedding
 * status and uptime cost nothing unless asked for.
 */
import type { GraphqlContext } from '../context.js';

/** A label with its node count (`LabelCount`). */
export interface LabelCount {
  readonly label: string;
  readonly count: number;
}

/** The source object of a `Stats` value: figures read on first use, at most once each. */
export class StatsSource {
  private counts: { readonly nodes: number; readonly relationships: number } | null = null;

  constructor(private readonly context: GraphqlContext) {}

  private totals(): { readonly nodes: number; readonly relationships: number } {
    this.counts ??= this.context.graph.engine.databaseServices.counts(this.context.graph.database);
    return this.counts;
  }

  get nodeCount(): number {
    return this.totals().nodes;
  }

  get relationshipCount(): number {
    return this.totals().relationships;
  }

  get embeddedNodeCount(): number {
    return this.context.search()?.status().vectors ?? 0;
  }

  get uptimeSeconds(): number {
    return (Date.now() - this.context.startedAt.getTime()) / 1000;
  }

  /** Labels that have nodes, with their counts, from one snapshot. */
  get labels(): LabelCount[] {
    return this.context.graph.engine
      .stats(this.context.graph.database)
      .labels.filter((entry) => entry.count > 0)
      .map((entry) => ({ label: entry.label, count: entry.count }));
  }
}
