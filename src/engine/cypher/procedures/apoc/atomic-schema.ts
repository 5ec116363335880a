/**
 * apoc.atomic (property updates under the transaction's write lock), apoc.lock (the database
 * write lock: this engine runs one writer at a time, so every lock APOC asks for is held by
 * taking it until the transaction ends) and apoc.schema (assert, listings, existence checks,
 * distinct values).
 */
import { groupKey } from '../../../values/group-key.js';
import { isNode, isRelationship } from '../../../values/kinds.js';
import type { CypherValue } from '../../../values/types.js';
import { executionOf, fn, illegalArgument, proc, type ApocContext } from './define.js';
import { cypherRows } from './run-cypher.js';
import { listArg, mapArg, mapOf, propsOf } from './values.js';
import { PAUSE } from '../../runtime/row.js';
import { valueText } from '../../../values/to-string.js';

function atomicUpdate(c: ApocContext, container: CypherValue, key: string, compute: (old: CypherValue) => CypherValue): CypherValue[] {
  const writer = c.writer();
  if (!isNode(container) && !isRelationship(container)) throw illegalArgument('The container must be a node or a relationship');
  const old = propsOf(container, c.exec.accessor).get(key) ?? null;
  const next = compute(old);
  const id = container.id;
  if (isNode(container)) writer.setNodeProperty(id, key, next);
  else writer.setRelationshipProperty(id, key, next);
  return [old, next];
}

function add(a: CypherValue, b: CypherValue, sign: 1 | -1): CypherValue {
  if (typeof a === 'bigint' && typeof b === 'bigint') return BigInt.asIntN(64, sign === 1 ? a + b : a - b);
  const x = typeof a === 'bigint' ? Number(a) : typeof a === 'number' ? a : 0;
  const y = typeof b === 'bigint' ? Number(b) : typeof b === 'number' ? b : 0;
  return typeof a === 'bigint' && typeof b === 'number' ? BigInt(Math.trunc(x + sign * y)) : x + sign * y;
}

const ATOMIC_OUT = '(oldValue :: ANY, newValue :: ANY)';

function indexed(
  reader: ReturnType<typeof executionOf>['reader'],
  entity: 'NODE' | 'RELATIONSHIP',
  token: string,
  props: readonly string[],
  constraint: boolean,
): boolean {
  const list = constraint ? reader.constraints() : reader.indexes();
  return list.some(
    (x) =>
      x.entityType === entity &&
      x.labelsOrTypes.includes(token) &&
      x.properties.length === props.length &&
      x.properties.every((p, i) => p === props[i]),
  );
}

/** The apoc.atomic, apoc.lock and apoc.schema entries. */
export const atomicSchemaEntries = [
  proc(
    `apoc.atomic.add(container :: ANY, propertyName :: STRING, number :: NUMBER, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Sets the given property to the sum of itself and the given `INTEGER` or `FLOAT` value.',
    function* ([c0, k, n], c) {
      yield atomicUpdate(c, c0!, valueText(k), (old) => add(old, n!, 1));
    },
  ),
  proc(
    `apoc.atomic.subtract(container :: ANY, propertyName :: STRING, number :: NUMBER, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Sets the property of a value to itself minus the given `INTEGER` or `FLOAT` value.',
    function* ([c0, k, n], c) {
      yield atomicUpdate(c, c0!, valueText(k), (old) => add(old, n!, -1));
    },
  ),
  proc(
    `apoc.atomic.concat(container :: ANY, propertyName :: STRING, string :: STRING, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Sets the given property to the concatenation of itself and the `STRING` value.',
    function* ([c0, k, s], c) {
      yield atomicUpdate(c, c0!, valueText(k), (old) => `${old === null ? '' : valueText(old)}${valueText(s ?? '')}`);
    },
  ),
  proc(
    `apoc.atomic.insert(container :: ANY, propertyName :: STRING, position :: INTEGER, value :: ANY, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Inserts a value at position into the `LIST<ANY>` value of a property. The position starts at 0.',
    function* ([c0, k, pos, v], c) {
      yield atomicUpdate(c, c0!, valueText(k), (old) => {
        const list = [...listArg(old)];
        list.splice(Math.min(Number(pos), list.length), 0, v!);
        return list;
      });
    },
  ),
  proc(
    `apoc.atomic.remove(container :: ANY, propertyName :: STRING, position :: INTEGER, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Removes the element at position from the `LIST<ANY>` value of a property. The position starts at 0.',
    function* ([c0, k, pos], c) {
      yield atomicUpdate(c, c0!, valueText(k), (old) => {
        const list = [...listArg(old)];
        if (Number(pos) >= list.length || Number(pos) < 0)
          throw illegalArgument(`Position ${valueText(pos)} is out of range for a list of ${list.length} elements`);
        list.splice(Number(pos), 1);
        return list;
      });
    },
  ),
  proc(
    `apoc.atomic.update(container :: ANY, propertyName :: STRING, operation :: STRING, retryAttempts = 5 :: INTEGER) :: ${ATOMIC_OUT}`,
    'WRITE',
    'Updates the value of a property with a Cypher operation.',
    function* ([c0, k, op], c) {
      yield atomicUpdate(c, c0!, valueText(k), () => {
        const rows = cypherRows(c.exec, `WITH $container AS n RETURN ${valueText(op)} AS value`, mapOf({ container: c0! }));
        return rows[0]?.value ?? null;
      });
    },
  ),
  proc('apoc.lock.nodes(nodes :: LIST<NODE>) :: VOID', 'WRITE', 'Acquires a write lock on the given `NODE` values.', function* (_args, c) {
    c.writer();
  }),
  proc(
    'apoc.lock.rels(rels :: LIST<RELATIONSHIP>) :: VOID',
    'WRITE',
    'Acquires a write lock on the given `RELATIONSHIP` values.',
    function* (_args, c) {
      c.writer();
    },
  ),
  proc(
    'apoc.lock.all(nodes :: LIST<NODE>, rels :: LIST<RELATIONSHIP>) :: VOID',
    'WRITE',
    'Acquires a write lock on the given `NODE` and `RELATIONSHIP` values.',
    function* (_args, c) {
      c.writer();
    },
  ),
  proc(
    'apoc.lock.read.nodes(nodes :: LIST<NODE>) :: VOID',
    'WRITE',
    'Acquires a read lock on the given `NODE` values (held as the database write lock).',
    function* (_args, c) {
      c.writer();
    },
  ),
  proc(
    'apoc.lock.read.rels(rels :: LIST<RELATIONSHIP>) :: VOID',
    'WRITE',
    'Acquires a read lock on the given `RELATIONSHIP` values (held as the database write lock).',
    function* (_args, c) {
      c.writer();
    },
  ),
  proc(
    'apoc.schema.assert(indexes :: MAP, constraints :: MAP, dropExisting = true :: BOOLEAN) :: (label :: ANY, key :: STRING, keys :: LIST<STRING>, unique :: BOOLEAN, action :: STRING)',
    'SCHEMA',
    'Drops all other existing indexes and constraints when `dropExisting` is `true` (default is `true`). Asserts at the end of the operation that the given indexes and unique constraints are there.',
    function* ([indexes, constraints, dropExisting], c) {
      const writer = c.writer();
      const wantedIndexes = [...mapArg(indexes)].flatMap(([label, props]) =>
        listArg(props).map((p) => ({ label, keys: listArg(p).map(String) })),
      );
      const wantedConstraints = [...mapArg(constraints)].flatMap(([label, props]) =>
        listArg(props).map((p) => ({ label, keys: listArg(p).map(String) })),
      );
      const same = (a: { labelsOrTypes: readonly string[]; properties: readonly string[] }, label: string, keys: readonly string[]) =>
        a.labelsOrTypes[0] === label && a.properties.join('\u0000') === keys.join('\u0000');
      const row = (label: string, keys: readonly string[], unique: boolean, action: string): CypherValue[] => [
        label,
        keys.length === 1 ? keys[0]! : null,
        [...keys],
        unique,
        action,
      ];
      for (const constraint of writer.constraints()) {
        if (constraint.entityType !== 'NODE' || !constraint.type.includes('UNIQUENESS')) continue;
        if (wantedConstraints.some((w) => same(constraint, w.label, w.keys)))
          yield row(constraint.labelsOrTypes[0]!, constraint.properties, true, 'KEPT');
        else if (dropExisting !== false) {
          writer.dropConstraint(constraint.name, true);
          yield row(constraint.labelsOrTypes[0]!, constraint.properties, true, 'DROPPED');
        }
      }
      for (const index of writer.indexes()) {
        if (index.entityType !== 'NODE' || index.type !== 'RANGE' || index.owningConstraint !== null) continue;
        if (wantedIndexes.some((w) => same(index, w.label, w.keys))) yield row(index.labelsOrTypes[0]!, index.properties, false, 'KEPT');
        else if (dropExisting !== false) {
          writer.dropIndex(index.name, true);
          yield row(index.labelsOrTypes[0]!, index.properties, false, 'DROPPED');
        }
      }
      for (const w of wantedIndexes) {
        if (writer.indexes().some((i) => i.entityType === 'NODE' && same(i, w.label, w.keys))) continue;
        writer.createIndex(
          {
            name: `index_${w.label}_${w.keys.join('_')}`,
            type: 'RANGE',
            entityType: 'NODE',
            labelsOrTypes: [w.label],
            properties: w.keys,
            options: new Map(),
          },
          true,
        );
        yield row(w.label, w.keys, false, 'CREATED');
      }
      for (const w of wantedConstraints) {
        if (writer.constraints().some((x) => x.entityType === 'NODE' && same(x, w.label, w.keys))) continue;
        writer.createConstraint(
          {
            name: `constraint_${w.label}_${w.keys.join('_')}`,
            type: 'UNIQUENESS',
            entityType: 'NODE',
            labelsOrTypes: [w.label],
            properties: w.keys,
            propertyType: null,
          },
          true,
        );
        yield row(w.label, w.keys, true, 'CREATED');
      }
    },
  ),
  proc(
    'apoc.schema.nodes(config = {} :: MAP) :: (name :: STRING, label :: ANY, properties :: LIST<STRING>, status :: STRING, type :: STRING, failure :: STRING, populationProgress :: FLOAT, size :: INTEGER, valuesSelectivity :: FLOAT, userDescription :: STRING)',
    'READ',
    'Returns all indexes and constraints information for all `NODE` labels in the database.',
    function* ([config], c) {
      const cfg = mapArg(config);
      const include = listArg(cfg.get('labels') ?? null).map(String);
      const exclude = listArg(cfg.get('excludeLabels') ?? null).map(String);
      const keep = (label: string) => (include.length === 0 || include.includes(label)) && !exclude.includes(label);
      for (const index of c.reader.indexes()) {
        if (index.entityType !== 'NODE' || index.type === 'LOOKUP' || index.owningConstraint !== null || !keep(index.labelsOrTypes[0]!))
          continue;
        const size = BigInt(c.reader.countNodes(index.labelsOrTypes[0]));
        yield [
          `:${index.labelsOrTypes[0]}(${index.properties.join(',')})`,
          index.labelsOrTypes[0]!,
          [...index.properties],
          index.state,
          `${index.type === 'RANGE' ? '' : `${index.type}_`}INDEX`.replace(/^_/, ''),
          'NO FAILURE',
          100,
          size,
          1,
          `name='${index.name}', type='${index.type}'`,
        ];
      }
      for (const constraint of c.reader.constraints()) {
        if (constraint.entityType !== 'NODE' || !keep(constraint.labelsOrTypes[0]!)) continue;
        yield [
          `:${constraint.labelsOrTypes[0]}(${constraint.properties.join(',')})`,
          constraint.labelsOrTypes[0]!,
          [...constraint.properties],
          '',
          constraint.type === 'UNIQUENESS' ? 'UNIQUENESS' : constraint.type,
          'NO FAILURE',
          0,
          0n,
          0,
          `name='${constraint.name}'`,
        ];
      }
    },
  ),
  proc(
    'apoc.schema.relationships(config = {} :: MAP) :: (name :: STRING, type :: STRING, properties :: LIST<STRING>, status :: STRING)',
    'READ',
    'Returns the indexes and constraints information for all the relationship types in the database.',
    function* (_args, c) {
      for (const index of c.reader.indexes()) {
        if (index.entityType !== 'RELATIONSHIP' || index.type === 'LOOKUP' || index.owningConstraint !== null) continue;
        yield [`:${index.labelsOrTypes[0]}(${index.properties.join(',')})`, `${index.type}_INDEX`, [...index.properties], index.state];
      }
      for (const constraint of c.reader.constraints()) {
        if (constraint.entityType !== 'RELATIONSHIP') continue;
        yield [
          `CONSTRAINT ON ()-[${constraint.labelsOrTypes[0]!.toLowerCase()}:${constraint.labelsOrTypes[0]}]-() ASSERT ${constraint.properties.map((p) => `${constraint.labelsOrTypes[0]!.toLowerCase()}.${p}`).join(', ')}`,
          constraint.type,
          [...constraint.properties],
          '',
        ];
      }
    },
  ),
  fn(
    'apoc.schema.node.indexExists(labelName :: STRING, propertyName :: LIST<STRING>) :: BOOLEAN',
    'Returns a `BOOLEAN` depending on whether or not an index exists for the given `NODE` label with the given property names.',
    ([label, props], ctx) => indexed(executionOf(ctx).reader, 'NODE', valueText(label), listArg(props).map(String), false),
  ),
  fn(
    'apoc.schema.node.constraintExists(labelName :: STRING, propertyName :: LIST<STRING>) :: BOOLEAN',
    'Returns a `BOOLEAN` depending on whether or not a constraint exists for the given `NODE` label with the given property names.',
    ([label, props], ctx) => indexed(executionOf(ctx).reader, 'NODE', valueText(label), listArg(props).map(String), true),
  ),
  fn(
    'apoc.schema.relationship.indexExists(relName :: STRING, propertyName :: LIST<STRING>) :: BOOLEAN',
    'Returns a `BOOLEAN` depending on whether or not an index exists for the given `RELATIONSHIP` type with the given property names.',
    ([type, props], ctx) => indexed(executionOf(ctx).reader, 'RELATIONSHIP', valueText(type), listArg(props).map(String), false),
  ),
  fn(
    'apoc.schema.relationship.constraintExists(type :: STRING, propertyName :: LIST<STRING>) :: BOOLEAN',
    'Returns a `BOOLEAN` depending on whether or not a constraint exists for the given `RELATIONSHIP` type with the given property names.',
    ([type, props], ctx) => indexed(executionOf(ctx).reader, 'RELATIONSHIP', valueText(type), listArg(props).map(String), true),
  ),
  proc(
    'apoc.schema.properties.distinct(label :: STRING, key :: STRING) :: (value :: LIST<ANY>)',
    'READ',
    'Returns all distinct `NODE` property values for the given key.',
    function* ([label, key], c) {
      const seen = new Map<string, CypherValue>();
      for (const id of c.reader.nodeIdsByLabel(valueText(label))) {
        if (c.exec.scheduler.tick()) yield PAUSE;
        const v = c.reader.nodeProperty(id, valueText(key));
        if (v !== undefined && v !== null) seen.set(groupKey(v), v);
      }
      yield [[...seen.values()]];
    },
  ),
  proc(
    "apoc.schema.properties.distinctCount(label = '' :: STRING, key = '' :: STRING) :: (label :: STRING, key :: STRING, value :: ANY, count :: INTEGER)",
    'READ',
    'Returns all distinct property values and counts for the given key.',
    function* ([label, key], c) {
      const labels = label === '' || label === null ? c.reader.labels() : [valueText(label)];
      for (const l of labels) {
        const counts = new Map<string, { key: string; value: CypherValue; count: number }>();
        for (const id of c.reader.nodeIdsByLabel(l)) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          for (const [k, v] of c.reader.getNode(id)?.properties ?? []) {
            if (key !== '' && key !== null && k !== key) continue;
            const g = `${k}\u0000${groupKey(v)}`;
            const e = counts.get(g) ?? { key: k, value: v, count: 0 };
            counts.set(g, e);
            e.count++;
          }
        }
        for (const e of counts.values()) yield [l, e.key, e.value, BigInt(e.count)];
      }
    },
  ),
];
