/**
 * Loads the openCypher TCK feature files into plain scenario objects.
 *
 * Terminology:
 * - A *scenario* is one Gherkin pickle: Scenario Outlines are expanded, one scenario per example
 *   row, with `<placeholders>` already substituted by `@cucumber/gherkin`'s compiler.
 * - A scenario's *id* is stable across runs: `<folder>/<file>:<scenario name>` plus `#<n>` for
 *   the n-th example of an outline. The ratchet file stores these ids.
 * - *Steps* are classified into the TCK's vocabulary (graph setup, parameters, procedures, the
 *   query, expectations); cell values stay as raw TCK text, parsed later by `tck-values.ts`.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';
import type { Pickle, PickleStep } from '@cucumber/messages';

/** Directory of the feature files copied into the repo. */
export const FEATURES_DIR = fileURLToPath(new URL('./features', import.meta.url));
/** Directory of the named graphs (`Given the binary-tree-1 graph`). */
export const GRAPHS_DIR = fileURLToPath(new URL('./graphs', import.meta.url));

/** Compile or run time, as the TCK's error expectations name them. */
export type ErrorPhase = 'compile time' | 'runtime' | 'any time';

/** One classified scenario step. */
export type TckStep =
  | { readonly kind: 'emptyGraph' }
  | { readonly kind: 'anyGraph' }
  | { readonly kind: 'namedGraph'; readonly name: string }
  | { readonly kind: 'setupQuery'; readonly query: string }
  | { readonly kind: 'parameters'; readonly parameters: ReadonlyMap<string, string> }
  | { readonly kind: 'procedure'; readonly signature: string; readonly table: readonly (readonly string[])[] }
  | { readonly kind: 'query'; readonly query: string }
  | { readonly kind: 'controlQuery'; readonly query: string }
  | {
      readonly kind: 'expectRows';
      readonly ordered: boolean;
      readonly ignoreListOrder: boolean;
      readonly columns: readonly string[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'expectEmpty' }
  | { readonly kind: 'expectError'; readonly errorType: string; readonly phase: ErrorPhase; readonly detail: string }
  | { readonly kind: 'sideEffects'; readonly effects: ReadonlyMap<string, number> };

/** One executable TCK scenario (an expanded pickle). */
export interface TckScenario {
  readonly id: string;
  /** Top-level folder: `clauses`, `expressions` or `useCases`. */
  readonly folder: string;
  /** Folder below the top one, e.g. `clauses/match`. */
  readonly group: string;
  readonly file: string;
  readonly feature: string;
  readonly name: string;
  readonly tags: readonly string[];
  readonly steps: readonly TckStep[];
}

/** Lists every `.feature` file below `dir`, sorted, as paths relative to `FEATURES_DIR`. */
export function listFeatureFiles(dir: string = FEATURES_DIR): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listFeatureFiles(path));
    else if (entry.endsWith('.feature')) out.push(relative(FEATURES_DIR, path).split(sep).join('/'));
  }
  return out;
}

/** Parses one feature file (path relative to `FEATURES_DIR`) into scenarios. */
export function loadFeature(file: string): TckScenario[] {
  const text = readFileSync(join(FEATURES_DIR, file), 'utf8');
  const newId = IdGenerator.incrementing();
  const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
  const document = parser.parse(text);
  const pickles = compile(document, file, newId);
  const featureName = document.feature?.name ?? file;
  const parts = file.split('/');
  const folder = parts[0] ?? '';
  const group = parts.slice(0, -1).join('/');
  const seen = new Map<string, number>();
  return pickles.map((pickle) => {
    const base = `${file}:${pickle.name}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    const id = count === 1 ? base : `${base}#${count}`;
    return {
      id,
      folder,
      group,
      file,
      feature: featureName,
      name: pickle.name,
      tags: pickle.tags.map((t) => t.name),
      steps: pickle.steps.map((step) => classifyStep(step, pickle)),
    };
  });
}

/** Loads every scenario below the given top-level folders (all when empty). */
export function loadScenarios(folders: readonly string[] = []): TckScenario[] {
  return listFeatureFiles()
    .filter((file) => folders.length === 0 || folders.some((f) => file.startsWith(`${f}/`)))
    .flatMap(loadFeature);
}

function tableOf(step: PickleStep): string[][] {
  return step.argument?.dataTable?.rows.map((row) => row.cells.map((cell) => cell.value)) ?? [];
}

function docOf(step: PickleStep): string {
  return step.argument?.docString?.content ?? '';
}

const ERROR_STEP = /^an? (\w+) should be raised at (compile time|runtime|any time): ?(.*)$/;
const PROCEDURE_STEP = /^there exists a procedure (.+):$/;
const NAMED_GRAPH_STEP = /^the ([\w-]+) graph$/;

/** Maps one pickle step to the TCK vocabulary; unknown steps are an error in the data. */
function classifyStep(step: PickleStep, pickle: Pickle): TckStep {
  const text = step.text.trim();
  if (text === 'an empty graph') return { kind: 'emptyGraph' };
  if (text === 'any graph') return { kind: 'anyGraph' };
  if (text === 'having executed:') return { kind: 'setupQuery', query: docOf(step) };
  if (text === 'executing query:') return { kind: 'query', query: docOf(step) };
  if (text === 'executing control query:') return { kind: 'controlQuery', query: docOf(step) };
  if (text === 'parameters are:') {
    return { kind: 'parameters', parameters: new Map(tableOf(step).map((row) => [row[0] ?? '', row[1] ?? ''])) };
  }
  if (text === 'the result should be empty') return { kind: 'expectEmpty' };
  if (text.startsWith('the result should be')) {
    const [header = [], ...rows] = tableOf(step);
    return {
      kind: 'expectRows',
      ordered: text.includes('in order'),
      ignoreListOrder: text.includes('ignoring element order for lists'),
      columns: header,
      rows,
    };
  }
  if (text === 'no side effects') return { kind: 'sideEffects', effects: new Map() };
  if (text === 'the side effects should be:') {
    return { kind: 'sideEffects', effects: new Map(tableOf(step).map((row) => [row[0] ?? '', Number(row[1])])) };
  }
  const error = ERROR_STEP.exec(text);
  if (error) {
    return { kind: 'expectError', errorType: error[1] ?? '', phase: error[2] as ErrorPhase, detail: error[3] ?? '' };
  }
  const procedure = PROCEDURE_STEP.exec(text);
  if (procedure) return { kind: 'procedure', signature: procedure[1] ?? '', table: tableOf(step) };
  const graph = NAMED_GRAPH_STEP.exec(text);
  if (graph) return { kind: 'namedGraph', name: graph[1] ?? '' };
  throw new Error(`Unknown TCK step "${text}" in scenario "${pickle.name}" (${pickle.uri})`);
}

/** The Cypher script that builds a named graph (`test/tck/graphs/<name>/<name>.cypher`). */
export function namedGraphScript(name: string): string {
  return readFileSync(join(GRAPHS_DIR, name, `${name}.cypher`), 'utf8');
}
