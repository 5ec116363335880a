/**
 * apoc.refactor: restructuring the stored graph (merging and cloning nodes, moving, inverting
 * and retyping relationships, extracting and collapsing nodes, renaming labels, types and
 * properties, categorizing values into nodes). Writes go through the statement's writer.
 */
import { groupKey } from '../../../values/group-key.js';
import { isNode, isPath, isRelationship } from '../../../values/kinds.js';
import { NodeRef, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import { PAUSE } from '../../runtime/row.js';
import { illegalArgument, proc, type ApocContext } from './define.js';
import { cfgBoolean, cfgString, listArg, mapArg, mapOf, nodeIds } from './values.js';
import { valueText } from '../../../values/to-string.js';

function relRef(v: CypherValue): RelationshipRef {
  if (!isRelationship(v)) throw illegalArgument('Expected a relationship');
  return new RelationshipRef(v.id, v.type, v.startId, v.endId);
}

/** Re-creates relationship `r` with a new type or endpoints (properties kept) and deletes it. */
function recreate(c: ApocContext, r: RelationshipRef, type: string, start: bigint, end: bigint): RelationshipRef {
  const writer = c.writer();
  const props = writer.getRelationship(r.id)?.properties ?? new Map();
  writer.deleteRelationship(r.id);
  const id = writer.createRelationship(type, start, end, props);
  return new RelationshipRef(id, type, start, end);
}

function mergeProperties(target: Map<string, CypherValue>, source: CypherMap, mode: string): void {
  for (const [k, v] of source) {
    if (!target.has(k)) target.set(k, v);
    else if (mode === 'overwrite' || mode === 'override') target.set(k, v);
    else if (mode === 'combine') {
      const current = target.get(k)!;
      const list = Array.isArray(current) ? [...(current as CypherValue[])] : [current];
      for (const x of Array.isArray(v) ? (v as CypherValue[]) : [v]) if (!list.some((y) => groupKey(y) === groupKey(x))) list.push(x);
      target.set(k, list.length === 1 ? list[0]! : list);
    }
  }
}

function cloneNode(c: ApocContext, id: bigint, skip: ReadonlySet<string>): bigint {
  const record = c.reader.getNode(id);
  if (!record) throw illegalArgument(`Node ${id} does not exist`);
  return c.writer().createNode(record.labels, new Map([...record.properties].filter(([k]) => !skip.has(k))));
}

function* renameRows(run: () => Generator<typeof PAUSE, number, undefined>): Generator<readonly CypherValue[] | typeof PAUSE> {
  const started = Date.now();
  const total = yield* run();
  const zero = new Map<string, CypherValue>();
  yield [
    1n,
    BigInt(total),
    BigInt(Math.round((Date.now() - started) / 1000)),
    BigInt(total),
    0n,
    0n,
    0n,
    zero,
    mapOf({ total: 1n, committed: 1n, failed: 0n, errors: zero }),
    mapOf({ total: BigInt(total), committed: BigInt(total), failed: 0n, errors: zero }),
    [],
    [],
  ];
}

const RENAME_OUT =
  '(batches :: INTEGER, total :: INTEGER, timeTaken :: INTEGER, committedOperations :: INTEGER, failedOperations :: INTEGER, failedBatches :: INTEGER, retries :: INTEGER, errorMessages :: MAP, batch :: MAP, operations :: MAP, constraints :: LIST<STRING>, indexes :: LIST<STRING>)';
const REL_OUT = '(input :: INTEGER, output :: RELATIONSHIP, error :: STRING)';
const NODE_OUT = '(input :: INTEGER, output :: NODE, error :: STRING)';

function* cloneSubgraph(
  c: ApocContext,
  nodes: readonly bigint[],
  rels: readonly RelationshipRef[],
  config: CypherMap,
): Generator<readonly CypherValue[]> {
  const skip = new Set(listArg(config.get('skipProperties') ?? null).map(String));
  const standin = new Map<bigint, bigint>();
  for (const pair of listArg(config.get('standinNodes') ?? null)) {
    const [orig, stand] = listArg(pair);
    if (isNode(orig!) && isNode(stand!)) standin.set(orig.id, stand.id);
  }
  const clones = new Map<bigint, bigint>();
  for (const id of nodes) {
    if (standin.has(id)) continue;
    const clone = cloneNode(c, id, skip);
    clones.set(id, clone);
    yield [id, new NodeRef(clone), null];
  }
  const mapped = (id: bigint) => clones.get(id) ?? standin.get(id) ?? id;
  for (const r of rels) {
    const props = c.reader.getRelationship(r.id)?.properties ?? new Map<string, CypherValue>();
    c.writer().createRelationship(r.type, mapped(r.startId), mapped(r.endId), new Map([...props].filter(([k]) => !skip.has(k))));
  }
}

/** The apoc.refactor procedures. */
export const refactorEntries = [
  proc(
    `apoc.refactor.invert(rel :: RELATIONSHIP) :: ${REL_OUT}`,
    'WRITE',
    'Inverts the direction of the given `RELATIONSHIP`.',
    function* ([rel], c) {
      const r = relRef(rel!);
      yield [r.id, recreate(c, r, r.type, r.endId, r.startId), null];
    },
  ),
  proc(
    `apoc.refactor.setType(rel :: RELATIONSHIP, newType :: STRING) :: ${REL_OUT}`,
    'WRITE',
    'Changes the type of the given `RELATIONSHIP`.',
    function* ([rel, type], c) {
      const r = relRef(rel!);
      yield [r.id, recreate(c, r, valueText(type), r.startId, r.endId), null];
    },
  ),
  proc(
    `apoc.refactor.from(rel :: RELATIONSHIP, newNode :: NODE) :: ${REL_OUT}`,
    'WRITE',
    'Redirects the given `RELATIONSHIP` to the given start `NODE`.',
    function* ([rel, node], c) {
      const r = relRef(rel!);
      if (!isNode(node!)) throw illegalArgument('Expected a node');
      yield [r.id, recreate(c, r, r.type, node.id, r.endId), null];
    },
  ),
  proc(
    `apoc.refactor.to(rel :: RELATIONSHIP, endNode :: NODE) :: ${REL_OUT}`,
    'WRITE',
    'Redirects the given `RELATIONSHIP` to the given end `NODE`.',
    function* ([rel, node], c) {
      const r = relRef(rel!);
      if (!isNode(node!)) throw illegalArgument('Expected a node');
      yield [r.id, recreate(c, r, r.type, r.startId, node.id), null];
    },
  ),
  proc(
    'apoc.refactor.mergeNodes(nodes :: LIST<NODE>, config = {} :: MAP) :: (node :: NODE)',
    'WRITE',
    'Merges the given `LIST<NODE>` onto the first `NODE` in the `LIST<NODE>`. All `RELATIONSHIP` values are merged onto that `NODE` as well.',
    function* ([nodes, config], c) {
      const ids = [...new Set(nodeIds(nodes!))];
      if (ids.length === 0) return;
      const cfg = mapArg(config);
      const mode = (cfgString(cfg, 'properties', 'discard') ?? 'discard').toLowerCase();
      const writer = c.writer();
      const [target, ...others] = ids;
      const props = new Map(writer.getNode(target!)?.properties ?? []);
      for (const id of others) {
        const record = writer.getNode(id);
        if (!record) continue;
        mergeProperties(props, record.properties, mode);
        writer.addLabels(target!, record.labels);
        {
          for (const r of [...writer.expand(id, 'both')]) {
            const ref = new RelationshipRef(r.id, r.type, r.startId, r.endId);
            const start = r.startId === id ? target! : r.startId;
            const end = r.endId === id ? target! : r.endId;
            if (start === end && cfgBoolean(cfg, 'selfRef', true) === false) writer.deleteRelationship(r.id);
            else recreate(c, ref, r.type, start, end);
          }
        }
        writer.deleteNode(id, true);
      }
      writer.replaceNodeProperties(target!, props);
      yield [new NodeRef(target!)];
    },
  ),
  proc(
    'apoc.refactor.mergeRelationships(rels :: LIST<RELATIONSHIP>, config = {} :: MAP) :: (rel :: RELATIONSHIP)',
    'WRITE',
    'Merges the given `LIST<RELATIONSHIP>` onto the first `RELATIONSHIP` in the `LIST<RELATIONSHIP>`.',
    function* ([rels, config], c) {
      const list = listArg(rels)
        .filter((r) => isRelationship(r))
        .map(relRef);
      if (list.length === 0) return;
      const mode = (cfgString(mapArg(config), 'properties', 'discard') ?? 'discard').toLowerCase();
      const writer = c.writer();
      const [target, ...others] = list;
      const props = new Map(writer.getRelationship(target!.id)?.properties ?? []);
      for (const r of others) {
        if (r.startId !== target!.startId || r.endId !== target!.endId)
          throw illegalArgument('All relationships must have the same start and end nodes.');
        mergeProperties(props, writer.getRelationship(r.id)?.properties ?? new Map(), mode);
        writer.deleteRelationship(r.id);
      }
      writer.replaceRelationshipProperties(target!.id, props);
      yield [target!];
    },
  ),
  proc(
    'apoc.refactor.cloneNodes(nodes :: LIST<NODE>, withRelationships = false :: BOOLEAN, skipProperties = [] :: LIST<STRING>) :: (input :: INTEGER, output :: NODE, error :: STRING)',
    'WRITE',
    'Clones the given `NODE` values with their labels and properties.',
    function* ([nodes, withRels, skip], c) {
      const skipSet = new Set(listArg(skip).map(String));
      for (const id of nodeIds(nodes!)) {
        const clone = cloneNode(c, id, skipSet);
        if (withRels === true) {
          for (const r of [...c.writer().expand(id, 'both')]) {
            const props = c.reader.getRelationship(r.id)?.properties ?? new Map();
            c.writer().createRelationship(r.type, r.startId === id ? clone : r.startId, r.endId === id ? clone : r.endId, props);
          }
        }
        yield [id, new NodeRef(clone), null];
      }
    },
  ),
  proc(
    `apoc.refactor.cloneSubgraph(nodes :: LIST<NODE>, rels = [] :: LIST<RELATIONSHIP>, config = {} :: MAP) :: ${NODE_OUT}`,
    'WRITE',
    'Clones the given `NODE` values with their labels and properties (optionally skipping any properties in the `skipProperties` `LIST<STRING>` via the config `MAP`), and clones the given `RELATIONSHIP` values.',
    function* ([nodes, rels, config], c) {
      const ids = nodeIds(nodes!);
      let relList = listArg(rels)
        .filter((r) => isRelationship(r))
        .map(relRef);
      if (relList.length === 0) {
        const set = new Set(ids);
        relList = ids.flatMap((id) =>
          [...c.reader.expand(id, 'out')].filter((r) => set.has(r.endId)).map((r) => new RelationshipRef(r.id, r.type, r.startId, r.endId)),
        );
      }
      yield* cloneSubgraph(c, ids, relList, mapArg(config));
    },
  ),
  proc(
    `apoc.refactor.cloneSubgraphFromPaths(paths :: LIST<PATH>, config = {} :: MAP) :: ${NODE_OUT}`,
    'WRITE',
    'Clones a sub-graph defined by the given `LIST<PATH>` values.',
    function* ([paths, config], c) {
      const nodes = new Map<bigint, bigint>();
      const rels = new Map<bigint, RelationshipRef>();
      for (const p of listArg(paths)) {
        if (!isPath(p)) continue;
        for (const n of p.nodes) nodes.set(n.id, n.id);
        for (const r of p.relationships) rels.set(r.id, relRef(r));
      }
      yield* cloneSubgraph(c, [...nodes.keys()], [...rels.values()], mapArg(config));
    },
  ),
  proc(
    `apoc.refactor.extractNode(rels :: ANY, labels :: LIST<STRING>, outType :: STRING, inType :: STRING) :: ${NODE_OUT}`,
    'WRITE',
    'Expands the given `RELATIONSHIP` VALUES into intermediate `NODE` VALUES. The intermediate `NODE` values are connected by the given `outType` and `inType`.',
    function* ([rels, labels, outType, inType], c) {
      const writer = c.writer();
      for (const item of listArg(rels)) {
        const r = typeof item === 'bigint' ? writer.getRelationship(item) : isRelationship(item) ? writer.getRelationship(item.id) : null;
        if (!r) continue;
        const node = writer.createNode(listArg(labels).map(String), r.properties);
        writer.deleteRelationship(r.id);
        writer.createRelationship(valueText(outType), r.startId, node, new Map());
        writer.createRelationship(valueText(inType), node, r.endId, new Map());
        yield [r.id, new NodeRef(node), null];
      }
    },
  ),
  proc(
    `apoc.refactor.collapseNode(nodes :: ANY, relType :: STRING) :: ${REL_OUT}`,
    'WRITE',
    'Collapses the given `NODE` and replaces it with a `RELATIONSHIP` of the given type.',
    function* ([nodes, type], c) {
      const writer = c.writer();
      for (const id of nodeIds(nodes!)) {
        const incoming = [...writer.expand(id, 'in')];
        const outgoing = [...writer.expand(id, 'out')];
        if (incoming.length !== 1 || outgoing.length !== 1) {
          yield [id, null, 'The node must have exactly one incoming and one outgoing relationship'];
          continue;
        }
        const props = new Map([
          ...(writer.getNode(id)?.properties ?? []),
          ...(writer.getRelationship(incoming[0]!.id)?.properties ?? []),
          ...(writer.getRelationship(outgoing[0]!.id)?.properties ?? []),
        ]);
        const start = incoming[0]!.startId;
        const end = outgoing[0]!.endId;
        writer.deleteNode(id, true);
        const rel = writer.createRelationship(valueText(type), start, end, props);
        yield [id, new RelationshipRef(rel, valueText(type), start, end), null];
      }
    },
  ),
  proc(
    'apoc.refactor.deleteAndReconnect(path :: PATH, nodes :: LIST<NODE>, config = {} :: MAP) :: (nodes :: LIST<NODE>, relationships :: LIST<RELATIONSHIP>)',
    'WRITE',
    'Removes the given `NODE` values from the `PATH` (and graph, including all of its relationships) and reconnects the remaining `NODE` values.',
    function* ([path, nodes, config], c) {
      if (!isPath(path!)) throw illegalArgument('Expected a path');
      const remove = new Set(nodeIds(nodes!));
      const writer = c.writer();
      const relType = cfgString(mapArg(config), 'relationshipSelectionStrategy', 'incoming') ?? 'incoming';
      const keptNodes: bigint[] = [];
      const keptRels: RelationshipRef[] = [];
      let pending: RelationshipRef | null = null;
      const p = path;
      p.nodes.forEach((n, i) => {
        if (remove.has(n.id)) {
          if (pending === null && i > 0) pending = relRef(p.relationships[i - 1]!);
          return;
        }
        if (pending !== null && keptNodes.length > 0) {
          const from = keptNodes[keptNodes.length - 1]!;
          const type = relType === 'outgoing' ? relRef(p.relationships[i - 1]!).type : pending.type;
          const id = writer.createRelationship(type, from, n.id, writer.getRelationship(pending.id)?.properties ?? new Map());
          keptRels.push(new RelationshipRef(id, type, from, n.id));
        } else if (i > 0) keptRels.push(relRef(p.relationships[i - 1]!));
        pending = null;
        keptNodes.push(n.id);
      });
      for (const id of remove) writer.deleteNode(id, true);
      yield [keptNodes.map((id) => new NodeRef(id)), keptRels.filter((r) => writer.getRelationship(r.id) !== null)];
    },
  ),
  proc(
    'apoc.refactor.normalizeAsBoolean(entity :: ANY, propertyKey :: STRING, trueValues :: LIST<ANY>, falseValues :: LIST<ANY>) :: VOID',
    'WRITE',
    'Refactors the given property to a `BOOLEAN`.',
    function* ([entity, key, trues, falses], c) {
      const writer = c.writer();
      const t = new Set(listArg(trues).map(groupKey));
      const f = new Set(listArg(falses).map(groupKey));
      for (const e of listArg(entity)) {
        if (!isNode(e) && !isRelationship(e)) continue;
        const id = e.id;
        const current = isNode(e) ? writer.nodeProperty(id, valueText(key)) : writer.relationshipProperty(id, valueText(key));
        if (current === undefined) continue;
        const next = t.has(groupKey(current)) ? true : f.has(groupKey(current)) ? false : null;
        if (isNode(e)) writer.setNodeProperty(id, valueText(key), next);
        else writer.setRelationshipProperty(id, valueText(key), next);
      }
    },
  ),
  proc(
    'apoc.refactor.categorize(sourceKey :: STRING, type :: STRING, outgoing :: BOOLEAN, label :: STRING, targetKey :: STRING, copiedKeys :: LIST<STRING>, batchSize :: INTEGER) :: VOID',
    'WRITE',
    'Creates new category `NODE` values from `NODE` values in the graph with the specified `sourceKey` as one of its property keys. The new category `NODE` values are then connected to the original `NODE` values with a `RELATIONSHIP` of the given type.',
    function* ([sourceKey, type, outgoing, label, targetKey, copied], c) {
      const writer = c.writer();
      const categories = new Map<string, bigint>();
      for (const id of [...writer.nodeIdsByLabel(valueText(label))]) {
        const v = writer.nodeProperty(id, valueText(targetKey));
        if (v !== undefined && v !== null) categories.set(groupKey(v), id);
      }
      for (const id of [...writer.allNodeIds()]) {
        if (c.exec.scheduler.tick()) yield PAUSE;
        const value = writer.nodeProperty(id, valueText(sourceKey));
        if (value === undefined || value === null) continue;
        let category = categories.get(groupKey(value));
        if (category === undefined) {
          const props = new Map<string, CypherValue>([[valueText(targetKey), value]]);
          for (const k of listArg(copied).map(String)) {
            const x = writer.nodeProperty(id, k);
            if (x !== undefined) props.set(k, x);
          }
          category = writer.createNode([valueText(label)], props);
          categories.set(groupKey(value), category);
        }
        if (outgoing === false) writer.createRelationship(valueText(type), category, id, new Map());
        else writer.createRelationship(valueText(type), id, category, new Map());
        writer.setNodeProperty(id, valueText(sourceKey), null);
      }
    },
  ),
  proc(
    `apoc.refactor.rename.label(oldLabel :: STRING, newLabel :: STRING, nodes = [] :: LIST<NODE>) :: ${RENAME_OUT}`,
    'WRITE',
    'Renames the given label from `oldLabel` to `newLabel` for all `NODE` values. If a `LIST<NODE>` is provided, the renaming is applied to the `NODE` values within this `LIST<NODE>` only.',
    ([oldLabel, newLabel, nodes], c) =>
      renameRows(function* () {
        const writer = c.writer();
        const given = nodeIds(nodes!);
        const ids =
          given.length > 0
            ? given.filter((id) => (writer.nodeLabels(id) ?? []).includes(valueText(oldLabel)))
            : [...writer.nodeIdsByLabel(valueText(oldLabel))];
        for (const id of ids) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          writer.removeLabels(id, [valueText(oldLabel)]);
          writer.addLabels(id, [valueText(newLabel)]);
        }
        return ids.length;
      }),
  ),
  proc(
    `apoc.refactor.rename.type(oldType :: STRING, newType :: STRING, rels = [] :: LIST<RELATIONSHIP>, config = {} :: MAP) :: ${RENAME_OUT}`,
    'WRITE',
    'Renames all `RELATIONSHIP` values with type `oldType` to `newType`. If a `LIST<RELATIONSHIP>` is provided, the renaming is applied to the `RELATIONSHIP` values within this `LIST<RELATIONSHIP>` only.',
    ([oldType, newType, rels], c) =>
      renameRows(function* () {
        const given = listArg(rels)
          .filter((r) => isRelationship(r))
          .map(relRef);
        const list = (
          given.length > 0
            ? given
            : [...c.writer().allRelationships([valueText(oldType)])].map((r) => new RelationshipRef(r.id, r.type, r.startId, r.endId))
        ).filter((r) => r.type === valueText(oldType));
        for (const r of list) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          recreate(c, r, valueText(newType), r.startId, r.endId);
        }
        return list.length;
      }),
  ),
  proc(
    `apoc.refactor.rename.nodeProperty(oldName :: STRING, newName :: STRING, nodes = [] :: LIST<NODE>, config = {} :: MAP) :: ${RENAME_OUT}`,
    'WRITE',
    'Renames the given property from `oldName` to `newName` for all `NODE` values. If a `LIST<NODE>` is provided, the renaming is applied to the `NODE` values within this `LIST<NODE>` only.',
    ([oldName, newName, nodes], c) =>
      renameRows(function* () {
        const writer = c.writer();
        const given = nodeIds(nodes!);
        let count = 0;
        for (const id of given.length > 0 ? given : [...writer.allNodeIds()]) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          const v = writer.nodeProperty(id, valueText(oldName));
          if (v === undefined) continue;
          writer.setNodeProperty(id, valueText(newName), v);
          writer.setNodeProperty(id, valueText(oldName), null);
          count++;
        }
        return count;
      }),
  ),
  proc(
    `apoc.refactor.rename.typeProperty(oldName :: STRING, newName :: STRING, rels = [] :: LIST<RELATIONSHIP>, config = {} :: MAP) :: ${RENAME_OUT}`,
    'WRITE',
    'Renames the given property from `oldName` to `newName` for all `RELATIONSHIP` values. If a `LIST<RELATIONSHIP>` is provided, the renaming is applied to the `RELATIONSHIP` values within this `LIST<RELATIONSHIP>` only.',
    ([oldName, newName, rels], c) =>
      renameRows(function* () {
        const writer = c.writer();
        const given = listArg(rels)
          .filter((r) => isRelationship(r))
          .map((r) => r.id);
        let count = 0;
        for (const id of given.length > 0 ? given : [...writer.allRelationships()].map((r) => r.id)) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          const v = writer.relationshipProperty(id, valueText(oldName));
          if (v === undefined) continue;
          writer.setRelationshipProperty(id, valueText(newName), v);
          writer.setRelationshipProperty(id, valueText(oldName), null);
          count++;
        }
        return count;
      }),
  ),
];
