/**
 * One result frame: a statement run on a database, with a Cancel button while it runs, then its
 * result as Graph (when it holds nodes), Table, JSON and Plan (EXPLAIN/PROFILE) views, a summary
 * line, or the error with its status code and position.
 */
import type { Node, QueryResult, RecordShape } from 'neo4j-driver';
import { newRunId } from './bolt.js';
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import { errorCode, errorView } from './errors.js';
import { GraphView } from './graph-view.js';
import { Inspector } from './inspector.js';
import { planView } from './plan.js';
import { resultTable } from './table.js';
import { graphElements, toJson, type GraphElements } from './values.js';

/** Result nodes up to this many get the relationships between them added (as Neo4j Browser does). */
const CONNECT_LIMIT = 1000;
/** Neighbours fetched by one expand. */
const EXPAND_LIMIT = 100;

type View = 'graph' | 'table' | 'json' | 'plan';

const VIEW_TITLES: Readonly<Record<View, string>> = { graph: 'Graph', table: 'Table', json: 'JSON', plan: 'Plan' };

/** Adds the relationships among the result's nodes and the missing ends of its relationships. */
async function completeGraph(context: AppContext, database: string, elements: GraphElements): Promise<void> {
  const missing = new Set<string>();
  for (const r of elements.relationships.values()) {
    if (!elements.nodes.has(r.startNodeElementId)) missing.add(r.startNodeElementId);
    if (!elements.nodes.has(r.endNodeElementId)) missing.add(r.endNodeElementId);
  }
  if (missing.size > 0) {
    const { result } = await context.bolt.run(database, 'MATCH (n) WHERE elementId(n) IN $ids RETURN n', { ids: [...missing] });
    for (const record of result.records) {
      const node = record.get('n') as Node;
      elements.nodes.set(node.elementId, node);
    }
  }
  if (elements.nodes.size < 2 || elements.nodes.size > CONNECT_LIMIT) return;
  const { result } = await context.bolt.run(database, 'MATCH (a)-[r]->(b) WHERE elementId(a) IN $ids AND elementId(b) IN $ids RETURN r', {
    ids: [...elements.nodes.keys()],
  });
  const found = graphElements(result.records.map((record) => record.get('r') as unknown));
  for (const [id, relationship] of found.relationships) elements.relationships.set(id, relationship);
}

function summaryText(result: QueryResult<RecordShape>, ms: number): string {
  const { summary } = result;
  const parts = [`${result.records.length} record${result.records.length === 1 ? '' : 's'}`, `${Math.round(ms)} ms`];
  const updates = summary.counters.updates() as Record<string, number>;
  for (const [name, count] of Object.entries(updates))
    if (count > 0) parts.push(`${name.replace(/([A-Z])/g, ' $1').toLowerCase()}: ${count}`);
  if (summary.counters.systemUpdates() > 0) parts.push(`system updates: ${summary.counters.systemUpdates()}`);
  return parts.join(' · ');
}

/** A frame for one statement; `run()` executes it. */
export class ResultFrame {
  readonly element: HTMLElement;
  private readonly body = h('div', { class: 'frame-body' });
  private readonly footer = h('div', { class: 'frame-footer' });
  private readonly tools = h('span', { class: 'frame-tools' });
  private graph: GraphView | null = null;
  /** The graph with its legend and inspector. */
  private graphPanel: HTMLElement | null = null;
  private cancelled = false;

  constructor(
    private readonly context: AppContext,
    private readonly statement: string,
    private readonly parameters: Record<string, unknown>,
    private readonly database: string,
  ) {
    this.element = h(
      'section',
      { class: 'frame', 'data-testid': 'frame', 'data-state': 'running' },
      h(
        'header',
        {},
        h('span', { class: 'db-badge', title: 'database' }, database),
        h('code', { class: 'frame-statement', title: 'Click to edit', onclick: () => this.edit() }, statement),
        this.tools,
        h('button', { class: 'icon', title: 'Close', 'aria-label': 'Close frame', onclick: () => this.close() }, '×'),
      ),
      this.body,
      this.footer,
    );
  }

  /** Runs the statement and shows the outcome. */
  async run(): Promise<void> {
    const runId = newRunId();
    const cancel = h('button', { class: 'danger', 'data-testid': 'cancel', onclick: () => void this.cancel(runId) }, 'Cancel');
    replaceChildren(this.tools, cancel);
    replaceChildren(this.body, h('div', { class: 'running' }, h('span', { class: 'spinner' }), 'Running…'));
    try {
      const { keys, result, ms } = await this.context.bolt.run(this.database, this.statement, this.parameters, runId);
      replaceChildren(this.tools);
      this.element.dataset.state = 'done';
      if (result.summary.counters.containsUpdates() || result.summary.counters.containsSystemUpdates()) {
        window.dispatchEvent(new Event('graphdb:changed'));
      }
      await this.showResult(keys, result, ms);
    } catch (error) {
      replaceChildren(this.tools);
      this.element.dataset.state = this.cancelled ? 'cancelled' : 'error';
      replaceChildren(
        this.body,
        this.cancelled ? h('p', { class: 'muted' }, 'Cancelled by the user.') : null,
        errorView(error, this.statement),
      );
      replaceChildren(this.footer, errorCode(error));
    }
  }

  private async cancel(runId: string): Promise<void> {
    this.cancelled = true;
    replaceChildren(this.tools, h('span', { class: 'muted' }, 'Cancelling…'));
    try {
      await this.context.bolt.cancel(this.database, runId);
    } catch (error) {
      this.body.appendChild(errorView(error));
    }
  }

  private edit(): void {
    window.dispatchEvent(new CustomEvent('graphdb:edit', { detail: this.statement }));
  }

  private close(): void {
    this.graph?.dispose();
    this.element.remove();
  }

  private async showResult(keys: readonly string[], result: QueryResult<RecordShape>, ms: number): Promise<void> {
    const { summary } = result;
    const plan = summary.profile !== false ? summary.profile : summary.plan !== false ? summary.plan : null;
    const elements = graphElements(result.records.flatMap((record) => keys.map((key) => record.get(key) as unknown)));
    if (elements.nodes.size > 0 || elements.relationships.size > 0) await completeGraph(this.context, this.database, elements);
    const views: View[] = [];
    if (elements.nodes.size > 0) views.push('graph');
    views.push('table', 'json');
    if (plan !== null) views.push('plan');
    const tabs = h('nav', { class: 'view-tabs', role: 'tablist' });
    const content = h('div', { class: 'view-content' });
    const render = (view: View): void => {
      for (const tab of tabs.children) tab.classList.toggle('active', (tab as HTMLElement).dataset.view === view);
      this.element.dataset.view = view;
      if (view === 'graph') {
        const graph = this.graphView(elements);
        if (!content.contains(this.graphPanel)) replaceChildren(content, this.graphPanel);
        graph.show();
        return;
      }
      if (view === 'table') replaceChildren(content, resultTable(keys, result.records));
      if (view === 'json')
        replaceChildren(
          content,
          h('pre', { class: 'json-view', 'data-testid': 'json' }, toJson(result.records.slice(0, 1000).map((r) => r.toObject()))),
        );
      if (view === 'plan' && plan !== null) replaceChildren(content, planView(plan, summary.profile !== false));
    };
    for (const view of views) {
      tabs.appendChild(h('button', { role: 'tab', 'data-view': view, onclick: () => render(view) }, VIEW_TITLES[view]));
    }
    replaceChildren(this.body, tabs, content);
    replaceChildren(this.footer, summaryText(result, ms));
    const first = plan !== null && summary.profile === false ? 'plan' : views[0]!;
    render(first);
    if (first === 'graph') {
      const started = performance.now();
      const drawnMs = await this.graph!.add(elements);
      this.element.dataset.renderMs = String(Math.round(Math.max(drawnMs, performance.now() - started)));
    }
  }

  private graphView(elements: GraphElements): GraphView {
    if (this.graph !== null) return this.graph;
    const graph: GraphView = new GraphView({
      styles: this.context.styles,
      onSelect: (selection) => inspector.show(selection),
      onExpand: (node) => void this.expand(node),
    });
    const inspector = new Inspector(this.context, this.database, {
      expand: (node) => void this.expand(node),
      updated: (node) => graph.update(node),
      deleted: (id) => graph.remove(id),
    });
    this.graph = graph;
    const legend = h('div', { class: 'legend' });
    const labels = new Map<string, number>();
    for (const node of elements.nodes.values()) for (const label of node.labels) labels.set(label, (labels.get(label) ?? 0) + 1);
    const drawLegend = (): void =>
      replaceChildren(
        legend,
        [...labels].map(([label, count]) =>
          h('span', { class: 'chip', style: `background:${this.context.styles.of([label]).color}` }, `${label} (${count})`),
        ),
        h('span', { class: 'muted' }, ` ${elements.nodes.size} nodes, ${elements.relationships.size} relationships`),
      );
    drawLegend();
    this.context.styles.subscribe(drawLegend);
    this.graphPanel = h('div', { class: 'graph-view' }, h('div', { class: 'graph-main' }, legend, graph.element), inspector.element);
    return graph;
  }

  private async expand(node: Node): Promise<void> {
    const graph = this.graph;
    if (graph === null) return;
    try {
      const { result } = await this.context.bolt.run(
        this.database,
        `MATCH (n)-[r]-(m) WHERE elementId(n) = $id RETURN r, m LIMIT ${EXPAND_LIMIT}`,
        { id: node.elementId },
      );
      const elements = graphElements(result.records.flatMap((record) => [record.get('r') as unknown, record.get('m') as unknown]));
      elements.nodes.set(node.elementId, node);
      await completeGraph(this.context, this.database, elements);
      await graph.add(elements, node.elementId);
      this.element.dataset.expanded = String(Number(this.element.dataset.expanded ?? '0') + 1);
    } catch (error) {
      this.body.appendChild(errorView(error));
    }
  }
}
