// The own Porter stemmer gives the stems the full-text indexes were built with (those of the
// `natural` package's Porter stemmer): fixtures/porter-stems.txt records 3,515 words and their stems
// (every stemmed word is a sample of an English vocabulary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { porterStem } from '../../src/engine/search/text/porter-stemmer.js';
import { analyze } from '../../src/engine/search/text/analyzer.js';

const recorded = readFileSync(new URL('fixtures/porter-stems.txt', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => line.split(' ') as [string, string]);

test('every recorded word gets its recorded stem', () => {
  assert.ok(recorded.length > 3000);
  const wrong = recorded.filter(([word, stem]) => porterStem(word) !== stem);
  assert.deepEqual(wrong.slice(0, 10), []);
});

test('the classic rules, short tokens and upper case', () => {
  const cases: Record<string, string> = {
    caresses: 'caress',
    ponies: 'poni',
    relational: 'relat',
    conditional: 'condit',
    hopping: 'hop',
    filing: 'file',
    agreed: 'agre',
    generalization: 'gener',
    electrical: 'electr',
    adjustment: 'adjust',
    controll: 'control',
    running: 'run',
    is: 'is',
    Running: 'run',
  };
  for (const [word, stem] of Object.entries(cases)) assert.equal(porterStem(word), stem, word);
});

test('the analyzer stems with it and keeps tokens with digits', () => {
  assert.deepEqual(analyze("The runners' running ran 3times"), ['the', 'runner', 'run', 'ran', '3times']);
});
