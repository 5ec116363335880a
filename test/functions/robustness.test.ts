import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { GraphError } from '../../src/engine/errors/index.js';
import { builtinFunctionList } from '../../src/engine/cypher/functions/index.js';
import { NodeRef, type CypherValue } from '../../src/engine/values/index.js';
import { value } from '../values/arbitraries.js';
import { m, testContext } from './helpers.js';

const graph = { nodes: new Map([[1n, { labels: ['A'], props: m({ x: 1n }) }]]), rels: new Map() };
const ctx = testContext(graph);

/** Values that steer functions into their interesting branches more often than `value` alone. */
const argument: fc.Arbitrary<CypherValue> = fc.oneof(
  value,
  fc.constantFrom<CypherValue>('day', 'week', 'P1D', '2015-07-21', '12:00', 'Europe/Stockholm', '+01:00', 'x', '', 'HALF_UP', 'NFC'),
  fc.constantFrom<CypherValue>(NaN, Infinity, -0, 1e300, 2n ** 63n - 1n, -(2n ** 63n), 0n, -1n, new NodeRef(1n)),
  fc.constantFrom<CypherValue>(m({ year: 2020n }), m({ hour: 1n }), m({ x: 1n, y: 2n }), m({ days: 1.5 }), m({ timezone: 'Asia/Tokyo' })),
);

function isAcceptable(error: unknown): boolean {
  return error instanceof GraphError;
}

describe('every built-in function', () => {
  for (const fn of builtinFunctionList) {
    it(`${fn.name} returns a value or raises a GraphError for any arguments`, () => {
      const arity = fc.integer({ min: fn.minArgs, max: Math.min(fn.maxArgs, fn.minArgs + 2) });
      fc.assert(
        fc.property(
          arity.chain((n) => fc.array(argument, { minLength: n, maxLength: n })),
          (args) => {
            try {
              if (fn.kind === 'scalar') {
                fn.call(args, ctx);
              } else {
                const acc = fn.createAccumulator(false);
                acc.add(args, ctx);
                acc.add(args, ctx);
                acc.result();
              }
            } catch (error) {
              assert.ok(isAcceptable(error), `${fn.name}(${args.length} args) threw ${String(error)}`);
            }
          },
        ),
        { numRuns: 150 },
      );
    });
  }
});
