/**
 * The statistics behind apoc.meta.*: one pass over the nodes and relationships of the database
 * (yielding PAUSE between slices) or of a given sub-graph, collecting per label, per label
 * combination, per relationship type and per (label)-[type]->(label) what the procedures report.
 */
import type { GraphReader } from '../../../storage/graph-store.js';
import { isNode, isRelationship } from '../../../values/kinds.js';
import type { CypherMap, CypherValue, EntityAccessor } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import { PAUSE, type Signal } from '../../runtime/row.js';
import { javaTypeName, metaPropertyType } from './meta-types.js';
import { labelsOf, propsOf } from './values.js';

/** What was seen of one property key on one label (or type, or combination). */
export interface PropertyStats {
  count: number;
  readonly types: Set<string>;
  readonly javaTypes: Set<string>;
  array: boolean;
}

/** Nodes of one label (or one combination of labels). */
export interface LabelStats {
  count: number;
  readonly properties: Map<string, PropertyStats>;
  /** Outgoing relationships by type: count and the labels at the other end. */
  readonly out: Map<string, { count: number; readonly others: Set<string> }>;
  /** Incoming relationships by type: count and the labels at the other end. */
  readonly in: Map<string, { count: number; readonly others: Set<string> }>;
}

/** Relationships of one type, with the (start labels, end labels) combinations seen. */
export interface TypeStats {
  count: number;
  readonly properties: Map<string, PropertyStats>;
  readonly combos: Map<
    string,
    { readonly start: readonly string[]; readonly end: readonly string[]; count: number; readonly properties: Map<string, PropertyStats> }
  >;
}

/** The result of a scan. */
export interface MetaStats {
  nodeCount: number;
  relCount: number;
  readonly labels: Map<string, LabelStats>;
  readonly combos: Map<string, LabelStats & { readonly labelList: readonly string[] }>;
  readonly types: Map<string, TypeStats>;
  /** `(:A)-[:T]->(:B)` triples with counts. */
  readonly triples: Map<string, { readonly start: string; readonly type: string; readonly end: string; count: number }>;
}

/** Labels and relationship types to include/exclude (APOC's config keys). */
export interface MetaFilter {
  readonly includeLabels: ReadonlySet<string>;
  readonly excludeLabels: ReadonlySet<string>;
  readonly includeRels: ReadonlySet<string>;
  readonly excludeRels: ReadonlySet<string>;
}

function stringSet(v: CypherValue | undefined): Set<string> {
  return new Set(Array.isArray(v) ? (v as CypherValue[]).filter((x): x is string => typeof x === 'string') : []);
}

/** The filter of an APOC meta config map (`includeLabels`, `labels`, `excludeLabels`, `excludes`, `includeRels`, `rels`, `excludeRels`). */
export function metaFilter(config: CypherMap): MetaFilter {
  return {
    includeLabels: new Set([...stringSet(config.get('includeLabels')), ...stringSet(config.get('labels'))]),
    excludeLabels: new Set([...stringSet(config.get('excludeLabels')), ...stringSet(config.get('excludes'))]),
    includeRels: new Set([...stringSet(config.get('includeRels')), ...stringSet(config.get('rels'))]),
    excludeRels: new Set([...stringSet(config.get('excludeRels'))]),
  };
}

function labelAllowed(f: MetaFilter, label: string): boolean {
  return !f.excludeLabels.has(label) && (f.includeLabels.size === 0 || f.includeLabels.has(label));
}

function typeAllowed(f: MetaFilter, type: string): boolean {
  return !f.excludeRels.has(type) && (f.includeRels.size === 0 || f.includeRels.has(type));
}

function emptyLabel(): LabelStats {
  return { count: 0, properties: new Map(), out: new Map(), in: new Map() };
}

function addProperties(target: Map<string, PropertyStats>, props: CypherMap): void {
  for (const [key, value] of props) {
    let p = target.get(key);
    if (!p) target.set(key, (p = { count: 0, types: new Set(), javaTypes: new Set(), array: false }));
    p.count++;
    p.types.add(metaPropertyType(value));
    p.javaTypes.add(javaTypeName(value));
    if (Array.isArray(value)) p.array = true;
  }
}

function emptyStats(): MetaStats {
  return { nodeCount: 0, relCount: 0, labels: new Map(), combos: new Map(), types: new Map(), triples: new Map() };
}

class Collector {
  readonly stats = emptyStats();
  constructor(private readonly filter: MetaFilter) {}

  node(labels: readonly string[], props: CypherMap): void {
    const kept = labels.filter((l) => labelAllowed(this.filter, l));
    if (kept.length === 0 && labels.length > 0) return;
    this.stats.nodeCount++;
    for (const label of kept) {
      let s = this.stats.labels.get(label);
      if (!s) this.stats.labels.set(label, (s = emptyLabel()));
      s.count++;
      addProperties(s.properties, props);
    }
    const key = [...labels]
      .sort()
      .map((l) => `:\`${l}\``)
      .join('');
    let combo = this.stats.combos.get(key);
    if (!combo) this.stats.combos.set(key, (combo = { ...emptyLabel(), labelList: [...labels].sort() }));
    combo.count++;
    addProperties(combo.properties, props);
  }

  relationship(type: string, startLabels: readonly string[], endLabels: readonly string[], props: CypherMap): void {
    if (!typeAllowed(this.filter, type)) return;
    this.stats.relCount++;
    let t = this.stats.types.get(type);
    if (!t) this.stats.types.set(type, (t = { count: 0, properties: new Map(), combos: new Map() }));
    t.count++;
    addProperties(t.properties, props);
    const comboKey = JSON.stringify([startLabels, endLabels]);
    let combo = t.combos.get(comboKey);
    if (!combo) t.combos.set(comboKey, (combo = { start: startLabels, end: endLabels, count: 0, properties: new Map() }));
    combo.count++;
    addProperties(combo.properties, props);
    for (const start of startLabels.filter((l) => labelAllowed(this.filter, l))) {
      const s = this.stats.labels.get(start) ?? emptyLabel();
      this.stats.labels.set(start, s);
      const out = s.out.get(type) ?? { count: 0, others: new Set<string>() };
      s.out.set(type, out);
      out.count++;
      for (const end of endLabels) out.others.add(end);
    }
    for (const end of endLabels.filter((l) => labelAllowed(this.filter, l))) {
      const s = this.stats.labels.get(end) ?? emptyLabel();
      this.stats.labels.set(end, s);
      const inc = s.in.get(type) ?? { count: 0, others: new Set<string>() };
      s.in.set(type, inc);
      inc.count++;
      for (const start of startLabels) inc.others.add(start);
    }
    for (const start of startLabels.length > 0 ? startLabels : ['']) {
      for (const end of endLabels.length > 0 ? endLabels : ['']) {
        const key = `(${start ? `:${start}` : ''})-[:${type}]->(${end ? `:${end}` : ''})`;
        const triple = this.stats.triples.get(key) ?? { start, type, end, count: 0 };
        this.stats.triples.set(key, triple);
        triple.count++;
      }
    }
  }
}

/** Scans the whole database of the running statement. */
export function* scanDatabase(exec: ExecutionContext, filter: MetaFilter): Generator<Signal, MetaStats, undefined> {
  const reader: GraphReader = exec.reader;
  const collector = new Collector(filter);
  for (const id of reader.allNodeIds()) {
    const record = reader.getNode(id);
    if (record) collector.node(record.labels, record.properties);
    if (exec.scheduler.tick()) yield PAUSE;
  }
  for (const rel of reader.allRelationships()) {
    const record = reader.getRelationship(rel.id);
    collector.relationship(
      rel.type,
      reader.nodeLabels(rel.startId) ?? [],
      reader.nodeLabels(rel.endId) ?? [],
      record?.properties ?? new Map(),
    );
    if (exec.scheduler.tick()) yield PAUSE;
  }
  return collector.stats;
}

/** Scans given nodes and relationships (real or virtual). */
export function scanValues(
  nodes: readonly CypherValue[],
  rels: readonly CypherValue[],
  accessor: EntityAccessor,
  filter: MetaFilter,
): MetaStats {
  const collector = new Collector(filter);
  const labelsById = new Map<bigint, readonly string[]>();
  for (const n of nodes) {
    if (!isNode(n)) continue;
    const labels = labelsOf(n, accessor);
    labelsById.set(n.id, labels);
    collector.node(labels, propsOf(n, accessor));
  }
  for (const r of rels) {
    if (!isRelationship(r)) continue;
    const ends = (id: bigint) => labelsById.get(id) ?? accessor.nodeLabels(id) ?? [];
    collector.relationship(r.type, ends(r.startId), ends(r.endId), propsOf(r, accessor));
  }
  return collector.stats;
}
