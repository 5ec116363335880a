/**
 * The schema sidebar of the chosen database: labels and relationship types with counts, property
 * keys with the number of nodes carrying them (over a sample of the first 10,000 nodes), indexes
 * and constraints. Clicking an entry runs the matching query. It also feeds the editor's
 * completion (labels, types, keys, functions, procedures).
 */
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import type { CompletionVocabulary } from './editor.js';
import { errorView } from './errors.js';
import { cellText } from './values.js';

const SAMPLE = 10_000;
const MAX_COUNTED = 200;

function quote(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

interface SchemaData {
  labels: [string, number][];
  types: [string, number][];
  keys: [string, number][];
  sampled: boolean;
  indexes: Record<string, unknown>[];
  constraints: Record<string, unknown>[];
}

async function loadSchema(context: AppContext, database: string): Promise<SchemaData> {
  const { bolt } = context;
  const count = async (query: string): Promise<number> => Number((await bolt.rows(database, query))[0]?.count ?? 0);
  const labelNames = (await bolt.rows(database, 'CALL db.labels() YIELD label RETURN label ORDER BY label')).map((r) => r.label as string);
  const typeNames = (
    await bolt.rows(database, 'CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType ORDER BY relationshipType')
  ).map((r) => r.relationshipType as string);
  const labels = await Promise.all(
    labelNames
      .slice(0, MAX_COUNTED)
      .map(async (l) => [l, await count(`MATCH (n:${quote(l)}) RETURN count(n) AS count`)] as [string, number]),
  );
  const types = await Promise.all(
    typeNames
      .slice(0, MAX_COUNTED)
      .map(async (t) => [t, await count(`MATCH ()-[r:${quote(t)}]->() RETURN count(r) AS count`)] as [string, number]),
  );
  const allKeys = (await bolt.rows(database, 'CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey ORDER BY propertyKey')).map(
    (r) => r.propertyKey as string,
  );
  const sample = await bolt.rows(database, `MATCH (n) WITH n LIMIT ${SAMPLE} UNWIND keys(n) AS key RETURN key, count(*) AS count`);
  const keyCounts = new Map(sample.map((r) => [r.key as string, Number(r.count)]));
  const total = await count('MATCH (n) RETURN count(n) AS count');
  const indexes = await bolt.rows(database, 'SHOW INDEXES YIELD name, type, labelsOrTypes, properties, state RETURN *');
  const constraints = await bolt.rows(database, 'SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties RETURN *');
  return {
    labels,
    types,
    keys: allKeys.map((k) => [k, keyCounts.get(k) ?? 0]),
    sampled: total > SAMPLE,
    indexes,
    constraints,
  };
}

/** Loads the vocabulary of the editor's completion from the database. */
export async function loadVocabulary(context: AppContext, database: string): Promise<Omit<CompletionVocabulary, 'parameters'>> {
  const { bolt } = context;
  const [labels, types, keys, functions, procedures] = await Promise.all([
    bolt.rows(database, 'CALL db.labels() YIELD label RETURN label'),
    bolt.rows(database, 'CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType'),
    bolt.rows(database, 'CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey'),
    bolt.rows(database, 'SHOW FUNCTIONS YIELD name RETURN name'),
    bolt.rows(database, 'SHOW PROCEDURES YIELD name RETURN name'),
  ]);
  return {
    labels: labels.map((r) => r.label as string),
    types: types.map((r) => r.relationshipType as string),
    propertyKeys: keys.map((r) => r.propertyKey as string),
    functions: functions.map((r) => r.name as string),
    procedures: procedures.map((r) => r.name as string),
  };
}

function section(title: string, items: HTMLElement[], empty: string): HTMLElement {
  return h('section', {}, h('h3', {}, title), items.length === 0 ? h('p', { class: 'muted' }, empty) : h('div', { class: 'chips' }, items));
}

function schemaLine(row: Record<string, unknown>): HTMLElement {
  const on = `${((row.labelsOrTypes as string[] | null) ?? []).join(', ')}(${((row.properties as string[] | null) ?? []).join(', ')})`;
  return h(
    'li',
    {},
    h('strong', {}, cellText(row.name)),
    ' ',
    h('span', { class: 'muted' }, `${cellText(row.type)} ${on}${row.state ? ` ${cellText(row.state)}` : ''}`),
  );
}

/** The sidebar element; `refresh()` reloads it for the current database. */
export function schemaSidebar(context: AppContext): { element: HTMLElement; refresh: () => Promise<void> } {
  const element = h('div', { class: 'schema', 'data-testid': 'schema' });
  const refresh = async (): Promise<void> => {
    const database = context.database;
    replaceChildren(element, h('p', { class: 'muted' }, 'Loading schema…'));
    try {
      const data = await loadSchema(context, database);
      if (database !== context.database) return;
      const run = (query: string) => () => context.runQuery(query);
      replaceChildren(
        element,
        h(
          'div',
          { class: 'schema-head' },
          h('span', {}, `Database ${database}`),
          h('button', { class: 'icon', title: 'Refresh', onclick: () => void refresh() }, '⟳'),
        ),
        section(
          'Node labels',
          data.labels.map(([label, n]) =>
            h(
              'button',
              {
                class: 'chip',
                style: `background:${context.styles.of([label]).color}`,
                onclick: run(`MATCH (n:${quote(label)}) RETURN n LIMIT 25`),
              },
              `${label} (${n})`,
            ),
          ),
          'No labels.',
        ),
        section(
          'Relationship types',
          data.types.map(([type, n]) =>
            h('button', { class: 'chip rel', onclick: run(`MATCH p=()-[:${quote(type)}]->() RETURN p LIMIT 25`) }, `${type} (${n})`),
          ),
          'No relationship types.',
        ),
        section(
          data.sampled ? `Property keys (nodes, first ${SAMPLE.toLocaleString()})` : 'Property keys (nodes)',
          data.keys.map(([key, n]) =>
            h(
              'button',
              { class: 'chip key', onclick: run(`MATCH (n) WHERE n.${quote(key)} IS NOT NULL RETURN n LIMIT 25`) },
              `${key} (${n})`,
            ),
          ),
          'No property keys.',
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Indexes'),
          data.indexes.length === 0 ? h('p', { class: 'muted' }, 'None.') : h('ul', { class: 'schema-list' }, data.indexes.map(schemaLine)),
        ),
        h(
          'section',
          {},
          h('h3', {}, 'Constraints'),
          data.constraints.length === 0
            ? h('p', { class: 'muted' }, 'None.')
            : h('ul', { class: 'schema-list' }, data.constraints.map(schemaLine)),
        ),
      );
    } catch (error) {
      replaceChildren(element, errorView(error));
    }
  };
  return { element, refresh };
}
