/**
 * The Cypher editor: CodeMirror 6 with the Cypher mode of @codemirror/legacy-modes, completion
 * of keywords, labels, relationship types, property keys, functions, procedures and parameters
 * from the live schema, Ctrl/Cmd-Enter to run, and history on Ctrl-Up/Down (plain Up/Down in a
 * one-line query, as in Neo4j Browser).
 */
import { autocompletion, closeBrackets, closeCompletion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { bracketMatching, StreamLanguage, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { cypher } from '@codemirror/legacy-modes/mode/cypher';
import { Prec } from '@codemirror/state';
import { keymap, lineNumbers, placeholder } from '@codemirror/view';
import { EditorView, minimalSetup } from 'codemirror';
import type { QueryHistory } from './history.js';

/** What the completion offers, refreshed from the database (see schema.ts). */
export interface CompletionVocabulary {
  labels: readonly string[];
  types: readonly string[];
  propertyKeys: readonly string[];
  functions: readonly string[];
  procedures: readonly string[];
  parameters: readonly string[];
}

const KEYWORDS = [
  'MATCH',
  'OPTIONAL MATCH',
  'WHERE',
  'RETURN',
  'WITH',
  'CREATE',
  'MERGE',
  'ON CREATE SET',
  'ON MATCH SET',
  'DELETE',
  'DETACH DELETE',
  'SET',
  'REMOVE',
  'UNWIND',
  'ORDER BY',
  'SKIP',
  'LIMIT',
  'CALL',
  'YIELD',
  'UNION',
  'UNION ALL',
  'EXPLAIN',
  'PROFILE',
  'DISTINCT',
  'AS',
  'AND',
  'OR',
  'XOR',
  'NOT',
  'IN',
  'IS NULL',
  'IS NOT NULL',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'FOREACH',
  'USE',
  'STARTS WITH',
  'ENDS WITH',
  'CONTAINS',
  'EXISTS',
  'SHOW DATABASES',
  'SHOW INDEXES',
  'SHOW CONSTRAINTS',
  'SHOW PROCEDURES',
  'SHOW FUNCTIONS',
  'SHOW TRANSACTIONS',
  'CREATE INDEX',
  'CREATE CONSTRAINT',
  'ASC',
  'DESC',
  'TRUE',
  'FALSE',
  'NULL',
];

function quoteName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, '``')}\``;
}

/** The completion source over a vocabulary that may change between calls. */
export function cypherCompletions(vocabulary: () => CompletionVocabulary) {
  return (context: CompletionContext): CompletionResult | null => {
    const words = vocabulary();
    const param = context.matchBefore(/\$\w*$/);
    if (param) return { from: param.from + 1, options: words.parameters.map((p) => ({ label: p, type: 'variable', detail: 'parameter' })) };
    const label = context.matchBefore(/:`?[\w ]*$/);
    if (label && !/:`?.* $/.test(label.text)) {
      return {
        from: label.from + 1,
        options: [
          ...words.labels.map((l) => ({ label: quoteName(l), type: 'class', detail: 'label', boost: 1 })),
          ...words.types.map((t) => ({ label: quoteName(t), type: 'type', detail: 'relationship type' })),
        ],
        validFor: /^`?[\w]*$/,
      };
    }
    const dotted = context.matchBefore(/[A-Za-z_][\w]*(\.[\w]*)+$/);
    if (dotted) {
      const [head] = dotted.text.split('.');
      const namespaced = [...words.procedures, ...words.functions].filter((name) => name.startsWith(`${head}.`));
      if (namespaced.length > 0) {
        return {
          from: dotted.from,
          options: [
            ...words.procedures.map((p) => ({ label: p, type: 'function', detail: 'procedure' })),
            ...words.functions.map((f) => ({ label: f, type: 'function', detail: 'function', apply: `${f}(` })),
          ],
          validFor: /^[\w.]*$/,
        };
      }
      const dot = dotted.text.lastIndexOf('.');
      return {
        from: dotted.from + dot + 1,
        options: words.propertyKeys.map((k) => ({ label: quoteName(k), type: 'property', detail: 'property key' })),
        validFor: /^\w*$/,
      };
    }
    const word = context.matchBefore(/\w+$/);
    if (!word && !context.explicit) return null;
    return {
      from: word ? word.from : context.pos,
      options: [
        ...KEYWORDS.map((k) => ({ label: k, type: 'keyword' })),
        ...words.functions.filter((f) => !f.includes('.')).map((f) => ({ label: f, type: 'function', detail: 'function', apply: `${f}(` })),
        ...words.procedures.map((p) => ({ label: p, type: 'function', detail: 'procedure' })),
      ],
      validFor: /^\w*$/,
    };
  };
}

/** The editor and the few operations the query page needs. */
export interface CypherEditor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  focus(): void;
}

/** Creates the editor in `parent`. `onRun` gets the text on Ctrl/Cmd-Enter. */
export function createEditor(
  parent: HTMLElement,
  options: { onRun: (text: string) => void; history: QueryHistory; vocabulary: () => CompletionVocabulary },
): CypherEditor {
  const { history } = options;
  const setText = (text: string): void => {
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: text.length } });
  };
  const step = (direction: -1 | 1): boolean => {
    const entry = history.step(direction, view.state.doc.toString());
    if (entry === null) return false;
    setText(entry);
    return true;
  };
  const oneLine = (): boolean => view.state.doc.lines === 1;
  const runKeys = Prec.highest(
    keymap.of([
      { key: 'Mod-Enter', run: () => (closeCompletion(view), options.onRun(view.state.doc.toString()), true) },
      { key: 'Mod-ArrowUp', run: () => step(-1) },
      { key: 'Mod-ArrowDown', run: () => step(1) },
      { key: 'ArrowUp', run: () => oneLine() && step(-1) },
      { key: 'ArrowDown', run: () => oneLine() && step(1) },
    ]),
  );
  const view = new EditorView({
    parent,
    extensions: [
      runKeys,
      minimalSetup,
      lineNumbers(),
      bracketMatching(),
      closeBrackets(),
      syntaxHighlighting(defaultHighlightStyle),
      StreamLanguage.define(cypher),
      autocompletion({ override: [cypherCompletions(options.vocabulary)], activateOnTyping: true }),
      placeholder('MATCH (n) RETURN n LIMIT 25   — Ctrl-Enter runs'),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': 'Cypher editor', 'data-testid': 'editor' }),
    ],
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText,
    focus: () => view.focus(),
  };
}
