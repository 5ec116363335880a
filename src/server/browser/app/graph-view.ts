/**
 * The interactive graph of a result: graphology holds the nodes and relationships, sigma draws
 * them with WebGL, ForceAtlas2 lays them out a few iterations per animation frame (so the page
 * stays responsive at thousands of elements). Click selects (the inspector shows it), double-click
 * expands a node's neighbours, nodes can be dragged, colours and captions follow the label styles.
 */
import Graph from 'graphology';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import type { Node, Relationship } from 'neo4j-driver';
import Sigma from 'sigma';
import { h } from './dom.js';
import type { LabelStyles } from './styles-by-label.js';
import { caption, cellText, type GraphElements } from './values.js';

/** What is selected in the graph. */
export type Selection =
  { readonly kind: 'node'; readonly node: Node } | { readonly kind: 'relationship'; readonly relationship: Relationship } | null;

/** Callbacks of the graph view. */
export interface GraphViewOptions {
  readonly styles: LabelStyles;
  readonly onSelect: (selection: Selection) => void;
  readonly onExpand: (node: Node) => void;
}

/** Milliseconds of layout work per animation frame, and the total layout time. */
const LAYOUT_SLICE_MS = 12;
const LAYOUT_BUDGET_MS = 4000;
/** Above this many relationships their type is not drawn (it costs more than it tells). */
const EDGE_LABEL_LIMIT = 300;

/** The graph view of one result frame. */
export class GraphView {
  readonly element: HTMLDivElement;
  readonly nodes = new Map<string, Node>();
  readonly relationships = new Map<string, Relationship>();
  private readonly graph = new Graph({ multi: true, type: 'directed', allowSelfLoops: true });
  private sigma: Sigma | null = null;
  private layoutFrame = 0;
  private dragged: string | null = null;
  private selected: string | null = null;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: GraphViewOptions) {
    this.element = h('div', { class: 'graph-canvas', 'data-testid': 'graph' });
    this.unsubscribe = options.styles.subscribe(() => this.restyle());
  }

  /** Creates the renderer; call once the element is in the document and visible. */
  show(): void {
    if (this.sigma !== null) {
      this.sigma.resize();
      this.sigma.refresh();
      return;
    }
    const sigma = new Sigma(this.graph, this.element, {
      allowInvalidContainer: true,
      defaultEdgeType: 'arrow',
      renderEdgeLabels: this.graph.size <= EDGE_LABEL_LIMIT,
      enableEdgeEvents: true,
      labelRenderedSizeThreshold: 6,
      labelFont: 'system-ui, sans-serif',
      edgeLabelFont: 'system-ui, sans-serif',
      zIndex: true,
    });
    this.sigma = sigma;
    sigma.on('clickNode', ({ node }) => this.select(node));
    sigma.on('clickEdge', ({ edge }) => this.select(edge));
    sigma.on('clickStage', () => this.select(null));
    sigma.on('doubleClickNode', (payload) => {
      payload.preventSigmaDefault();
      const node = payload.node;
      const target = this.nodes.get(node);
      if (target) this.options.onExpand(target);
    });
    sigma.on('downNode', ({ node }) => {
      this.dragged = node;
      this.stopLayout();
      sigma.getCamera().disable();
    });
    sigma.on('moveBody', (payload) => {
      if (this.dragged === null) return;
      const position = sigma.viewportToGraph(payload.event);
      this.graph.mergeNodeAttributes(this.dragged, { x: position.x, y: position.y });
      payload.preventSigmaDefault();
    });
    const release = (): void => {
      this.dragged = null;
      sigma.getCamera().enable();
    };
    sigma.on('upNode', release);
    sigma.on('upStage', release);
  }

  /**
   * Adds nodes and relationships (relationships whose ends are not in the view are left out).
   * New nodes start around `near` (an expanded node) or on a circle; the layout then runs.
   * Resolves once the first frame with them is drawn, with the milliseconds that took.
   */
  add(elements: GraphElements, near: string | null = null): Promise<number> {
    const started = performance.now();
    const centre = near !== null && this.graph.hasNode(near) ? this.graph.getNodeAttributes(near) : null;
    const fresh = [...elements.nodes.values()].filter((node) => !this.graph.hasNode(node.elementId));
    fresh.forEach((node, index) => {
      const angle = (2 * Math.PI * index) / Math.max(1, fresh.length);
      const radius = centre ? 1 + Math.random() : Math.sqrt(fresh.length) * (0.8 + Math.random() * 0.4);
      this.nodes.set(node.elementId, node);
      this.graph.addNode(node.elementId, {
        x: (centre ? (centre.x as number) : 0) + radius * Math.cos(angle),
        y: (centre ? (centre.y as number) : 0) + radius * Math.sin(angle),
        ...this.nodeLook(node),
      });
    });
    for (const relationship of elements.relationships.values()) {
      const { elementId, startNodeElementId: from, endNodeElementId: to } = relationship;
      if (this.graph.hasEdge(elementId) || !this.graph.hasNode(from) || !this.graph.hasNode(to)) continue;
      this.relationships.set(elementId, relationship);
      this.graph.addDirectedEdgeWithKey(elementId, from, to, { label: relationship.type, size: 1.5, color: '#a5abb6' });
    }
    this.sigma?.setSetting('renderEdgeLabels', this.graph.size <= EDGE_LABEL_LIMIT);
    this.element.dataset.nodes = String(this.graph.order);
    this.element.dataset.relationships = String(this.graph.size);
    const drawn = new Promise<number>((resolve) => {
      const sigma = this.sigma;
      if (sigma === null) return resolve(performance.now() - started);
      sigma.once('afterRender', () => resolve(performance.now() - started));
      sigma.refresh();
    });
    this.startLayout();
    return drawn;
  }

  /** The graphology graph (read-only use: counts, neighbours). */
  get model(): Graph {
    return this.graph;
  }

  /** Replaces a node's data (after an edit) and redraws it. */
  update(node: Node): void {
    if (!this.graph.hasNode(node.elementId)) return;
    this.nodes.set(node.elementId, node);
    this.graph.mergeNodeAttributes(node.elementId, this.nodeLook(node));
  }

  /** Removes a node and its relationships (after a delete). */
  remove(elementId: string): void {
    if (!this.graph.hasNode(elementId)) return;
    for (const edge of this.graph.edges(elementId)) this.relationships.delete(edge);
    this.graph.dropNode(elementId);
    this.nodes.delete(elementId);
    if (this.selected === elementId) this.select(null);
  }

  dispose(): void {
    this.stopLayout();
    this.unsubscribe();
    this.sigma?.kill();
    this.sigma = null;
  }

  /** Smaller nodes in bigger graphs, so that a thousand of them stay apart. */
  private get nodeSize(): number {
    const order = this.graph.order;
    return order > 500 ? 4 : order > 100 ? 6 : 9;
  }

  private nodeLook(node: Node): Record<string, unknown> {
    const style = this.options.styles.of(node.labels);
    const property = style.caption === '' ? undefined : (node.properties as Record<string, unknown>)[style.caption];
    return { label: property === undefined ? caption(node) : cellText(property), color: style.color, size: this.nodeSize };
  }

  private restyle(): void {
    for (const node of this.nodes.values()) this.graph.mergeNodeAttributes(node.elementId, this.nodeLook(node));
  }

  private select(key: string | null): void {
    if (this.selected !== null && this.graph.hasNode(this.selected)) this.graph.setNodeAttribute(this.selected, 'highlighted', false);
    if (this.selected !== null && this.graph.hasEdge(this.selected)) this.graph.setEdgeAttribute(this.selected, 'color', '#a5abb6');
    this.selected = key;
    if (key !== null && this.graph.hasNode(key)) {
      this.graph.setNodeAttribute(key, 'highlighted', true);
      this.options.onSelect({ kind: 'node', node: this.nodes.get(key)! });
    } else if (key !== null && this.graph.hasEdge(key)) {
      this.graph.setEdgeAttribute(key, 'color', '#3b6fb6');
      this.options.onSelect({ kind: 'relationship', relationship: this.relationships.get(key)! });
    } else {
      this.options.onSelect(null);
    }
  }

  private startLayout(): void {
    this.stopLayout();
    if (this.graph.order < 2) return;
    const settings = { ...forceAtlas2.inferSettings(this.graph), barnesHutOptimize: this.graph.order > 300 };
    const started = performance.now();
    let iterations = 1;
    const tick = (): void => {
      const sliceStart = performance.now();
      forceAtlas2.assign(this.graph, { iterations, settings });
      const spent = performance.now() - sliceStart;
      iterations = Math.max(1, Math.min(50, Math.round((iterations * LAYOUT_SLICE_MS) / Math.max(spent, 0.1))));
      if (performance.now() - started < LAYOUT_BUDGET_MS) this.layoutFrame = requestAnimationFrame(tick);
      else this.element.dataset.layoutDone = 'true';
    };
    this.element.dataset.layoutDone = 'false';
    this.layoutFrame = requestAnimationFrame(tick);
  }

  private stopLayout(): void {
    cancelAnimationFrame(this.layoutFrame);
  }
}
