/**
 * The query page: the Cypher editor with Run, parameters and history, and the result frames
 * (newest on top). A script with several statements runs them one after another, one frame
 * each, stopping at the first error. `:use <database>` switches database, `:clear` empties the
 * frames, as in Neo4j Browser.
 */
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import { createEditor, type CompletionVocabulary, type CypherEditor } from './editor.js';
import { errorView } from './errors.js';
import { ResultFrame } from './frame.js';
import { parseParameters } from './params.js';
import { splitStatements } from './statements.js';

/** The query page element and its editor. */
export interface QueryPage {
  readonly element: HTMLElement;
  readonly editor: CypherEditor;
}

/** Builds the query page; `vocabulary` feeds the editor's completion. */
export function queryPage(context: AppContext, vocabulary: () => CompletionVocabulary): QueryPage {
  const frames = h('div', { class: 'frames', 'data-testid': 'frames' });
  const paramsBox = h('textarea', {
    class: 'params',
    rows: 3,
    spellcheck: 'false',
    placeholder: '{"name": "Alice", "limit": 10}',
    'aria-label': 'Parameters (JSON)',
    'data-testid': 'params',
  });
  const paramsPanel = h(
    'div',
    { class: 'params-panel', hidden: true },
    h('label', {}, 'Parameters (JSON object; integers are exact)'),
    paramsBox,
  );
  const historyList = h('ul', { class: 'history-list', 'data-testid': 'history' });
  const historyPanel = h('div', { class: 'history-panel', hidden: true }, historyList);
  const notice = h('div');
  const editorHost = h('div', { class: 'editor-host' });

  const parameterNames = (): string[] => {
    try {
      return Object.keys(parseParameters(paramsBox.value));
    } catch {
      return [];
    }
  };

  const runScript = async (script: string): Promise<void> => {
    replaceChildren(notice);
    let parameters: Record<string, unknown>;
    try {
      parameters = parseParameters(paramsBox.value);
    } catch (error) {
      replaceChildren(notice, errorView(Object.assign(new Error((error as Error).message), { code: 'Parameters' })));
      return;
    }
    const statements = splitStatements(script);
    if (statements.length === 0) return;
    context.history.add(script);
    const batch = h('div', { class: 'batch' });
    frames.prepend(batch);
    for (const statement of statements) {
      const command = /^:(\w+)\s*(.*)$/s.exec(statement);
      if (command) {
        if (command[1] === 'clear') replaceChildren(frames);
        else if (command[1] === 'use' && command[2]) context.database = command[2].trim().replace(/^`|`$/g, '');
        else
          batch.appendChild(
            errorView(Object.assign(new Error(`Unknown command ${statement}: use :use <database> or :clear.`), { code: 'Command' })),
          );
        continue;
      }
      const frame = new ResultFrame(context, statement, parameters, context.database);
      batch.appendChild(frame.element);
      await frame.run();
      if (frame.element.dataset.state !== 'done') break;
    }
  };

  const editor = createEditor(editorHost, {
    onRun: (text) => void runScript(text),
    history: context.history,
    vocabulary: () => ({ ...vocabulary(), parameters: parameterNames() }),
  });

  const toggle = (panel: HTMLElement, fill?: () => void) => () => {
    panel.hidden = !panel.hidden;
    if (!panel.hidden) fill?.();
  };
  const fillHistory = (): void =>
    replaceChildren(
      historyList,
      context.history.list().length === 0
        ? h('li', { class: 'muted' }, 'No queries yet.')
        : context.history
            .list()
            .map((entry) =>
              h(
                'li',
                {},
                h('button', { class: 'link', onclick: () => (editor.setText(entry), (historyPanel.hidden = true), editor.focus()) }, entry),
              ),
            ),
    );

  window.addEventListener('graphdb:edit', (event) => {
    editor.setText((event as CustomEvent<string>).detail);
    editor.focus();
  });
  context.runQuery = (statement, parameters) => {
    editor.setText(statement);
    if (parameters !== undefined) paramsBox.value = JSON.stringify(parameters);
    void runScript(statement);
  };

  const element = h(
    'div',
    { class: 'query-page' },
    h(
      'div',
      { class: 'editor-bar' },
      editorHost,
      h(
        'div',
        { class: 'editor-buttons' },
        h(
          'button',
          { class: 'primary', title: 'Run (Ctrl-Enter)', 'data-testid': 'run', onclick: () => void runScript(editor.text()) },
          '▶ Run',
        ),
        h('button', { title: 'Parameters', onclick: toggle(paramsPanel) }, 'Params'),
        h('button', { title: 'History (Ctrl-Up / Ctrl-Down)', onclick: toggle(historyPanel, fillHistory) }, 'History'),
        h('button', { title: 'Clear the editor', onclick: () => (editor.setText(''), editor.focus()) }, 'Clear'),
      ),
    ),
    paramsPanel,
    historyPanel,
    notice,
    frames,
  );
  return { element, editor };
}
