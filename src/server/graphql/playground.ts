/**
 * `GET /graphql/playground`: a small self-contained explorer page (no external assets, works
 * offline). It posts `{query, variables}` with fetch to the sibling `/graphql` endpoint (so it
 * follows the base path), sends the Authorization value typed into it, lists the schema's types
 * from introspection, and shows the response. `?query=...&variables=...&autorun=1` fills the
 * editor and runs it on load (used by the headless-browser test).
 */

const STYLE = `
body{font-family:system-ui,sans-serif;margin:0;display:flex;flex-direction:column;height:100vh}
header{display:flex;gap:.5rem;align-items:center;padding:.5rem;background:#1f2937;color:#fff}
header input{flex:1;max-width:24rem}
main{display:flex;flex:1;min-height:0}
section{display:flex;flex-direction:column;flex:1;min-width:0;padding:.5rem;gap:.25rem}
textarea,pre{flex:1;font-family:ui-monospace,monospace;font-size:13px;margin:0;border:1px solid #ccc;padding:.5rem;overflow:auto}
#variables{flex:0 0 6rem}
#types{font-size:12px;color:#374151;max-height:8rem;overflow:auto}
`;

const SCRIPT = `
const endpoint = new URL('../graphql', location.href).toString();
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
$('auth').value = localStorage.getItem('graphdb.playground.auth') || '';
if (params.has('query')) $('query').value = params.get('query');
if (params.has('variables')) $('variables').value = params.get('variables');
async function post(query, variables) {
  const headers = { 'content-type': 'application/json', accept: 'application/json' };
  const auth = $('auth').value.trim();
  if (auth) headers.authorization = auth;
  localStorage.setItem('graphdb.playground.auth', auth);
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: response.status, body: await response.text() };
}
async function run() {
  const result = $('result');
  result.dataset.state = 'running';
  result.textContent = 'Running...';
  try {
    const text = $('variables').value.trim();
    const variables = text ? JSON.parse(text) : undefined;
    const { status, body } = await post($('query').value, variables);
    let shown = body;
    try { shown = JSON.stringify(JSON.parse(body), null, 2); } catch {}
    result.textContent = shown;
    result.dataset.status = String(status);
    result.dataset.state = 'done';
  } catch (error) {
    result.textContent = String(error);
    result.dataset.state = 'failed';
  }
}
async function loadTypes() {
  try {
    const { body } = await post('{ __schema { queryType { name } types { name kind } } }');
    const types = JSON.parse(body).data.__schema.types.filter((t) => !t.name.startsWith('__'));
    $('types').textContent = 'Types: ' + types.map((t) => t.name).join(', ');
  } catch (error) {
    $('types').textContent = 'Schema unavailable: ' + error;
  }
}
$('run').addEventListener('click', run);
$('schema').addEventListener('click', loadTypes);
$('query').addEventListener('keydown', (event) => { if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) run(); });
if (params.get('autorun') === '1') run();
`;

const DEFAULT_QUERY = `query {
  stats { nodeCount relationshipCount labels { label count } }
}`;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The playground page. */
export function playgroundHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>graphdb GraphQL playground</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body>
<header><strong>graphdb GraphQL</strong>
<label for="auth">Authorization</label><input id="auth" placeholder="Basic dXNlcjpzZWNyZXQ= or Bearer ...">
<button id="run" title="Ctrl+Enter">Run</button><button id="schema">Schema</button></header>
<div id="types"></div>
<main>
<section><label for="query">Query</label><textarea id="query" spellcheck="false">${escapeHtml(DEFAULT_QUERY)}</textarea>
<label for="variables">Variables (JSON)</label><textarea id="variables" spellcheck="false"></textarea></section>
<section><label for="result">Result</label><pre id="result" data-state="idle"></pre></section>
</main>
<script>${SCRIPT}</script>
</body></html>`;
}
