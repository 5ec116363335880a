/**
 * The inspector beside the graph: the selected node's labels, element id and properties (or a
 * relationship's type, ends and properties), with Expand, Edit (properties replaced through
 * `SET n = $properties`) and Delete (`DETACH DELETE`) for nodes, and the label style controls.
 */
import type { Node, Relationship } from 'neo4j-driver';
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import { errorView } from './errors.js';
import type { Selection } from './graph-view.js';
import { parsePropertyValue } from './params.js';
import { cellText, toPlain } from './values.js';

/** What the inspector asks its graph to do after a change. */
export interface InspectorActions {
  expand(node: Node): void;
  updated(node: Node): void;
  deleted(elementId: string): void;
}

function propertyRows(properties: Record<string, unknown>): HTMLElement {
  const keys = Object.keys(properties).sort();
  if (keys.length === 0) return h('p', { class: 'muted' }, 'No properties.');
  return h(
    'table',
    { class: 'properties' },
    keys.map((key) => h('tr', {}, h('th', {}, key), h('td', {}, cellText(properties[key])))),
  );
}

function styleControls(context: AppContext, node: Node): HTMLElement | null {
  const label = node.labels[0];
  if (label === undefined) return null;
  const style = context.styles.of(node.labels);
  const color = h('input', { type: 'color', value: style.color, title: `Colour of :${label}`, 'aria-label': `Colour of ${label}` });
  const captionSelect = h(
    'select',
    { 'aria-label': `Caption of ${label}` },
    h('option', { value: '' }, '(automatic caption)'),
    Object.keys(node.properties).map((key) => h('option', { value: key, selected: key === style.caption }, key)),
  );
  const save = (): void => context.styles.set(label, { color: color.value, caption: captionSelect.value });
  color.addEventListener('change', save);
  captionSelect.addEventListener('change', save);
  return h('div', { class: 'style-controls' }, h('span', { class: 'muted' }, `Style of :${label}`), color, captionSelect);
}

/** The inspector panel of one graph view. */
export class Inspector {
  readonly element = h('aside', { class: 'inspector', 'data-testid': 'inspector' });

  constructor(
    private readonly context: AppContext,
    private readonly database: string,
    private readonly actions: InspectorActions,
  ) {
    this.show(null);
  }

  show(selection: Selection): void {
    if (selection === null) {
      replaceChildren(
        this.element,
        h('p', { class: 'muted' }, 'Click a node or relationship to inspect it. Double-click a node to expand its neighbours.'),
      );
    } else if (selection.kind === 'node') {
      this.showNode(selection.node);
    } else {
      this.showRelationship(selection.relationship);
    }
  }

  private showNode(node: Node): void {
    const properties = toPlain(node.properties) as Record<string, unknown>;
    replaceChildren(
      this.element,
      h(
        'div',
        { class: 'chips' },
        node.labels.map((label) => h('span', { class: 'chip', style: `background:${this.context.styles.of([label]).color}` }, label)),
      ),
      h('div', { class: 'muted small' }, `elementId ${node.elementId}`),
      propertyRows(node.properties),
      h(
        'div',
        { class: 'buttons' },
        h('button', { onclick: () => this.actions.expand(node) }, 'Expand'),
        h('button', { onclick: () => this.edit(node, properties) }, 'Edit'),
        h('button', { class: 'danger', onclick: () => void this.delete(node) }, 'Delete'),
      ),
      styleControls(this.context, node),
    );
  }

  private showRelationship(relationship: Relationship): void {
    replaceChildren(
      this.element,
      h('div', { class: 'chips' }, h('span', { class: 'chip rel' }, relationship.type)),
      h('div', { class: 'muted small' }, `elementId ${relationship.elementId}`),
      h('div', { class: 'muted small' }, `${relationship.startNodeElementId} → ${relationship.endNodeElementId}`),
      propertyRows(relationship.properties),
    );
  }

  private edit(node: Node, properties: Record<string, unknown>): void {
    const rows = h('div', { class: 'edit-rows' });
    const addRow = (key: string, value: string): void => {
      const row = h(
        'div',
        { class: 'edit-row' },
        h('input', { class: 'key', value: key, placeholder: 'key', 'aria-label': 'property key' }),
        h('input', { class: 'value', value, placeholder: 'value (JSON or text)', 'aria-label': 'property value' }),
        h('button', { title: 'Remove this property', onclick: () => row.remove() }, '×'),
      );
      rows.appendChild(row);
    };
    for (const [key, value] of Object.entries(properties)) addRow(key, typeof value === 'string' ? value : JSON.stringify(value));
    const status = h('div');
    const save = async (): Promise<void> => {
      const next: Record<string, unknown> = {};
      for (const row of rows.querySelectorAll('.edit-row')) {
        const key = row.querySelector<HTMLInputElement>('.key')!.value.trim();
        if (key !== '') next[key] = parsePropertyValue(row.querySelector<HTMLInputElement>('.value')!.value);
      }
      try {
        const { result } = await this.context.bolt.run(this.database, 'MATCH (n) WHERE elementId(n) = $id SET n = $properties RETURN n', {
          id: node.elementId,
          properties: next,
        });
        const updated = result.records[0]?.get('n') as Node | undefined;
        if (updated === undefined) throw new Error('The node no longer exists.');
        this.actions.updated(updated);
        this.showNode(updated);
      } catch (error) {
        replaceChildren(status, errorView(error));
      }
    };
    replaceChildren(
      this.element,
      h('h4', {}, `Edit ${node.labels.map((l) => `:${l}`).join('')}`),
      rows,
      h(
        'div',
        { class: 'buttons' },
        h('button', { onclick: () => addRow('', '') }, 'Add property'),
        h('button', { class: 'primary', onclick: () => void save() }, 'Save'),
        h('button', { onclick: () => this.showNode(node) }, 'Cancel'),
      ),
      status,
    );
  }

  private async delete(node: Node): Promise<void> {
    if (!confirm(`Delete this node and its relationships?`)) return;
    try {
      await this.context.bolt.run(this.database, 'MATCH (n) WHERE elementId(n) = $id DETACH DELETE n', { id: node.elementId });
      this.actions.deleted(node.elementId);
      this.show(null);
    } catch (error) {
      this.element.appendChild(errorView(error));
    }
  }
}
