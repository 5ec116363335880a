/**
 * docs/apoc.md is generated from the registries against docs/apoc-core.txt; this test fails when
 * the page is stale (UPDATE_APOC_DOC=1 rewrites it), and checks that every registered APOC entry
 * has a signature, description and mode.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { createFunctionRegistry } from '../../src/engine/cypher/functions/index.js';
import { apocCoreNames, apocCoverageMarkdown } from '../../src/engine/cypher/procedures/apoc/coverage.js';
import { createProcedureRegistry } from '../../src/engine/cypher/procedures/index.js';

const docPath = new URL('../../docs/apoc.md', import.meta.url);
const namesPath = new URL('../../docs/apoc-core.txt', import.meta.url);

test('docs/apoc.md is the coverage table of the registries', () => {
  const names = apocCoreNames(readFileSync(namesPath, 'utf8'));
  assert.equal(names.length, 429);
  const expected = apocCoverageMarkdown(names, createProcedureRegistry(), createFunctionRegistry());
  if (process.env.UPDATE_APOC_DOC === '1') writeFileSync(docPath, expected);
  assert.equal(readFileSync(docPath, 'utf8'), expected, 'docs/apoc.md is stale: run UPDATE_APOC_DOC=1 node test/run.mjs coverage');
});

test('every APOC entry has a signature, a description and a mode', () => {
  const procedures = createProcedureRegistry()
    .list()
    .filter((p) => p.name.startsWith('apoc.'));
  const functions = createFunctionRegistry()
    .list()
    .filter((f) => f.name.startsWith('apoc.'));
  assert.ok(procedures.length > 100 && functions.length > 200);
  for (const p of procedures) {
    assert.ok(p.description.length > 10, p.name);
    assert.ok(['READ', 'WRITE', 'SCHEMA', 'DBMS'].includes(p.mode), p.name);
  }
  for (const f of functions) {
    assert.match(f.signature, new RegExp(`^${f.name.replace(/\./g, '\\.')}\\(.*\\) :: \\S`), f.name);
    assert.ok(f.description.length > 10, f.name);
  }
});
