/**
 * The search tab: hybrid search (BM25 and vectors fused by RRF), or text / vector alone, through
 * `POST /graphdb/search` on the chosen database, with every score the server reports. "Show in
 * graph" opens the hits in a query frame.
 */
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import { errorView } from './errors.js';
import { cellText } from './values.js';

interface SearchHit {
  readonly node: { readonly elementId: string; readonly labels: readonly string[]; readonly properties: Record<string, unknown> };
  readonly score: number;
  readonly rrfScore?: number | null;
  readonly textScore?: number | null;
  readonly textRank?: number | null;
  readonly similarity?: number | null;
  readonly vectorRank?: number | null;
  readonly rerankScore?: number | null;
}

interface SearchAnswer {
  readonly results: readonly SearchHit[];
  readonly totalCount: number;
  readonly executionTimeMs: number;
  readonly method: string;
  readonly cached: boolean;
}

function score(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : value.toFixed(4);
}

function resultsTable(context: AppContext, answer: SearchAnswer): HTMLElement {
  const ids = answer.results.map((hit) => hit.node.elementId);
  return h(
    'div',
    { class: 'search-results', 'data-testid': 'search-results' },
    h(
      'div',
      { class: 'row' },
      h(
        'span',
        { class: 'muted' },
        `${answer.totalCount} results · ${answer.method} · ${answer.executionTimeMs.toFixed(1)} ms${answer.cached ? ' · cached' : ''}`,
      ),
      ids.length === 0
        ? null
        : h(
            'button',
            { onclick: () => ((location.hash = '#/query'), context.runQuery('MATCH (n) WHERE elementId(n) IN $ids RETURN n', { ids })) },
            'Show in graph',
          ),
    ),
    h(
      'table',
      { class: 'plain' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['#', 'score', 'RRF', 'BM25', 'text rank', 'similarity', 'vector rank', 'labels', 'properties'].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        answer.results.map((hit, index) =>
          h(
            'tr',
            {},
            h('td', {}, index + 1),
            h('td', { class: 'num' }, score(hit.score)),
            h('td', { class: 'num' }, score(hit.rrfScore)),
            h('td', { class: 'num' }, score(hit.textScore)),
            h('td', { class: 'num' }, hit.textRank ?? '–'),
            h('td', { class: 'num' }, score(hit.similarity)),
            h('td', { class: 'num' }, hit.vectorRank ?? '–'),
            h('td', {}, hit.node.labels.join(', ')),
            h('td', {}, h('pre', {}, cellText(hit.node.properties))),
          ),
        ),
      ),
    ),
  );
}

/** The search page for the current database. */
export function searchPage(context: AppContext): HTMLElement {
  const query = h('input', {
    type: 'search',
    placeholder: 'Search text…',
    'aria-label': 'Search text',
    'data-testid': 'search-query',
    required: true,
  });
  const method = h(
    'select',
    { 'aria-label': 'Method' },
    ['hybrid', 'text', 'vector'].map((m) => h('option', { value: m }, m)),
  );
  const labels = h('input', { placeholder: 'Labels (comma separated, optional)', 'aria-label': 'Labels' });
  const limit = h('input', { type: 'number', min: 1, max: 1000, value: '10', 'aria-label': 'Limit', class: 'narrow' });
  const output = h('div');
  const form = h(
    'form',
    { class: 'search-form' },
    query,
    method,
    labels,
    limit,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'search-run' }, 'Search'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    replaceChildren(output, h('p', { class: 'muted' }, 'Searching…'));
    const labelList = labels.value
      .split(',')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    context.api
      .json<SearchAnswer>('/graphdb/search', {
        body: {
          query: query.value,
          method: method.value,
          limit: Number(limit.value) || 10,
          database: context.database,
          ...(labelList.length > 0 ? { labels: labelList } : {}),
        },
      })
      .then(
        (answer) => replaceChildren(output, resultsTable(context, answer)),
        (error: unknown) => replaceChildren(output, errorView(error)),
      );
  });
  return h(
    'div',
    { class: 'page search-page' },
    h('h2', {}, `Search in ${context.database}`),
    h(
      'p',
      { class: 'muted' },
      'Hybrid search ranks nodes by BM25 over their text properties and by vector similarity of their embeddings, fused by reciprocal rank (RRF).',
    ),
    form,
    output,
  );
}
