/**
 * apoc.create: nodes, relationships, labels and properties with dynamic names; virtual nodes,
 * relationships and paths; uuids.
 */
import { randomUUID } from 'node:crypto';
import { isNode, isPath } from '../../../values/kinds.js';
import { NodeRef, Path, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import { fn, illegalArgument, proc, type ApocContext } from './define.js';
import { virtualNode, virtualRelationship } from './virtual.js';
import { labelsOf, listArg, mapArg, nodeIds, propsOf, relationships } from './values.js';
import { valueText } from '../../../values/to-string.js';

/** Node ids of an argument that may be a node, an id, an element id or a list of them. */
export function nodesArg(c: ApocContext, v: CypherValue): bigint[] {
  return nodeIds(v, (elementId) => c.reader.idFromElementId(elementId)).filter((id) => c.reader.nodeExists(id));
}

function strings(v: CypherValue | undefined): string[] {
  return listArg(v ?? null).filter((x): x is string => typeof x === 'string');
}

/** The non-null entries of a property map (null removes, as SET does). */
export function storable(props: CypherMap): CypherMap {
  return new Map([...props].filter(([, v]) => v !== null));
}

/** Sets every entry of `props` on a node or relationship (null values remove the key). */
export function setAll(c: ApocContext, target: NodeRef | RelationshipRef, props: CypherMap): void {
  const writer = c.writer();
  for (const [k, v] of props) {
    if (target instanceof NodeRef) writer.setNodeProperty(target.id, k, v);
    else writer.setRelationshipProperty(target.id, k, v);
  }
}

function relationshipRefs(v: CypherValue): RelationshipRef[] {
  return relationships(v).map((r) => new RelationshipRef(r.id, r.type, r.startId, r.endId));
}

function createRelationship(c: ApocContext, from: CypherValue, type: CypherValue, props: CypherValue, to: CypherValue): RelationshipRef {
  if (!isNode(from) || !isNode(to)) throw illegalArgument('Relationship start and end must be nodes');
  if (typeof type !== 'string' || type === '') throw illegalArgument('Relationship type must not be null or empty');
  const id = c.writer().createRelationship(type, from.id, to.id, storable(mapArg(props)));
  return new RelationshipRef(id, type, from.id, to.id);
}

function clonePath(c: ApocContext, p: CypherValue): Path {
  if (!isPath(p)) throw illegalArgument('Expected a path');
  const nodes = new Map<bigint, ReturnType<typeof virtualNode>>();
  for (const n of p.nodes) if (!nodes.has(n.id)) nodes.set(n.id, virtualNode(labelsOf(n, c.exec.accessor), propsOf(n, c.exec.accessor)));
  const rels = p.relationships.map((r) =>
    virtualRelationship(r.type, nodes.get(r.startId)!, nodes.get(r.endId)!, propsOf(r, c.exec.accessor), c.exec.accessor),
  );
  return new Path(
    p.nodes.map((n) => nodes.get(n.id)!),
    rels,
  );
}

function uuidToBase64(hex: string): string {
  return Buffer.from(hex.replace(/-/g, ''), 'hex').toString('base64').replace(/=+$/, '');
}

/** The apoc.create procedures and functions. */
export const createEntries = [
  proc(
    'apoc.create.node(labels :: LIST<STRING>, props :: MAP) :: (node :: NODE)',
    'WRITE',
    'Creates a `NODE` with the given dynamic labels.',
    function* ([labels, props], c) {
      yield [new NodeRef(c.writer().createNode(strings(labels), storable(mapArg(props))))];
    },
  ),
  proc(
    'apoc.create.nodes(labels :: LIST<STRING>, props :: LIST<MAP>) :: (node :: NODE)',
    'WRITE',
    'Creates `NODE` values with the given dynamic labels.',
    function* ([labels, props], c) {
      for (const p of listArg(props)) yield [new NodeRef(c.writer().createNode(strings(labels), storable(mapArg(p))))];
    },
  ),
  proc(
    'apoc.create.relationship(from :: NODE, relType :: STRING, props :: MAP, to :: NODE) :: (rel :: RELATIONSHIP)',
    'WRITE',
    'Creates a `RELATIONSHIP` with the given dynamic relationship type.',
    function* ([from, type, props, to], c) {
      yield [createRelationship(c, from!, type!, props!, to!)];
    },
  ),
  proc(
    'apoc.create.addLabels(nodes :: ANY, labels :: LIST<STRING>) :: (node :: NODE)',
    'WRITE',
    'Adds the given labels to the given `NODE` values.',
    function* ([nodes, labels], c) {
      for (const id of nodesArg(c, nodes!)) {
        c.writer().addLabels(id, strings(labels));
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.removeLabels(nodes :: ANY, labels :: LIST<STRING>) :: (node :: NODE)',
    'WRITE',
    'Removes the given labels from the given `NODE` values.',
    function* ([nodes, labels], c) {
      for (const id of nodesArg(c, nodes!)) {
        c.writer().removeLabels(id, strings(labels));
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.setLabels(nodes :: ANY, labels :: LIST<STRING>) :: (node :: NODE)',
    'WRITE',
    'Sets the given labels to the given `NODE` values. Non-matching labels are removed from the nodes.',
    function* ([nodes, labels], c) {
      const wanted = strings(labels);
      for (const id of nodesArg(c, nodes!)) {
        const current = c.reader.nodeLabels(id) ?? [];
        c.writer().removeLabels(
          id,
          current.filter((l) => !wanted.includes(l)),
        );
        c.writer().addLabels(id, wanted);
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.setProperty(nodes :: ANY, key :: STRING, value :: ANY) :: (node :: NODE)',
    'WRITE',
    'Sets the given property to the given `NODE` values.',
    function* ([nodes, key, value], c) {
      for (const id of nodesArg(c, nodes!)) {
        c.writer().setNodeProperty(id, valueText(key), value!);
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.setProperties(nodes :: ANY, keys :: LIST<STRING>, values :: LIST<ANY>) :: (node :: NODE)',
    'WRITE',
    'Sets the given properties to the given `NODE` values.',
    function* ([nodes, keys, values], c) {
      const vs = listArg(values);
      for (const id of nodesArg(c, nodes!)) {
        strings(keys).forEach((k, i) => c.writer().setNodeProperty(id, k, vs[i] ?? null));
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.removeProperties(nodes :: ANY, keys :: LIST<STRING>) :: (node :: NODE)',
    'WRITE',
    'Removes the given properties from the given `NODE` values.',
    function* ([nodes, keys], c) {
      for (const id of nodesArg(c, nodes!)) {
        for (const k of strings(keys)) c.writer().setNodeProperty(id, k, null);
        yield [new NodeRef(id)];
      }
    },
  ),
  proc(
    'apoc.create.setRelProperty(rels :: ANY, key :: STRING, value :: ANY) :: (rel :: RELATIONSHIP)',
    'WRITE',
    'Sets the given property on the `RELATIONSHIP` values.',
    function* ([rels, key, value], c) {
      for (const r of relationshipRefs(rels!)) {
        c.writer().setRelationshipProperty(r.id, valueText(key), value!);
        yield [r];
      }
    },
  ),
  proc(
    'apoc.create.setRelProperties(rels :: ANY, keys :: LIST<STRING>, values :: LIST<ANY>) :: (rel :: RELATIONSHIP)',
    'WRITE',
    'Sets the given properties on the `RELATIONSHIP` values.',
    function* ([rels, keys, values], c) {
      const vs = listArg(values);
      for (const r of relationshipRefs(rels!)) {
        strings(keys).forEach((k, i) => c.writer().setRelationshipProperty(r.id, k, vs[i] ?? null));
        yield [r];
      }
    },
  ),
  proc(
    'apoc.create.removeRelProperties(rels :: ANY, keys :: LIST<STRING>) :: (rel :: RELATIONSHIP)',
    'WRITE',
    'Removes the given properties from the given `RELATIONSHIP` values.',
    function* ([rels, keys], c) {
      for (const r of relationshipRefs(rels!)) {
        for (const k of strings(keys)) c.writer().setRelationshipProperty(r.id, k, null);
        yield [r];
      }
    },
  ),
  proc(
    'apoc.create.vNode(labels :: LIST<STRING>, props = {} :: MAP) :: (node :: NODE)',
    'READ',
    'Returns a virtual `NODE`.',
    function* ([labels, props]) {
      yield [virtualNode(strings(labels), mapArg(props))];
    },
  ),
  fn(
    'apoc.create.vNode(labels :: LIST<STRING>, props = {} :: MAP) :: NODE',
    'Returns a virtual `NODE`.',
    ([labels, props]) => virtualNode(strings(labels), mapArg(props)),
    { deterministic: false },
  ),
  proc(
    'apoc.create.vNodes(labels :: LIST<STRING>, props :: LIST<MAP>) :: (node :: NODE)',
    'READ',
    'Returns virtual `NODE` values.',
    function* ([labels, props]) {
      for (const p of listArg(props)) yield [virtualNode(strings(labels), mapArg(p))];
    },
  ),
  proc(
    'apoc.create.vRelationship(from :: NODE, relType :: STRING, props :: MAP, to :: NODE) :: (rel :: RELATIONSHIP)',
    'READ',
    'Returns a virtual `RELATIONSHIP`.',
    function* ([from, type, props, to], c) {
      yield [virtualRelationship(valueText(type), from!, to!, mapArg(props), c.exec.accessor)];
    },
  ),
  fn(
    'apoc.create.vRelationship(from :: NODE, relType :: STRING, props :: MAP, to :: NODE) :: RELATIONSHIP',
    'Returns a virtual `RELATIONSHIP`.',
    ([from, type, props, to], ctx) => virtualRelationship(valueText(type), from!, to!, mapArg(props), ctx.accessor),
    { deterministic: false },
  ),
  proc(
    'apoc.create.virtualPath(labelsN :: LIST<STRING>, n :: MAP, relType :: STRING, props :: MAP, labelsM :: LIST<STRING>, m :: MAP) :: (from :: NODE, rel :: RELATIONSHIP, to :: NODE)',
    'READ',
    'Returns a virtual `PATH`.',
    function* ([labelsN, n, type, props, labelsM, m], c) {
      const from = virtualNode(strings(labelsN), mapArg(n));
      const to = virtualNode(strings(labelsM), mapArg(m));
      yield [from, virtualRelationship(valueText(type), from, to, mapArg(props), c.exec.accessor), to];
    },
  ),
  fn(
    'apoc.create.virtual.fromNode(node :: NODE, propertyNames :: LIST<STRING>) :: NODE',
    'Returns a virtual `NODE` from the given existing `NODE`.',
    ([node, names], ctx) => {
      if (!isNode(node!)) return null;
      const wanted = strings(names);
      const props = propsOf(node, ctx.accessor);
      return virtualNode(labelsOf(node, ctx.accessor), new Map([...props].filter(([k]) => wanted.includes(k))));
    },
  ),
  proc(
    'apoc.create.clonePathToVirtual(path :: PATH) :: (path :: PATH)',
    'READ',
    'Takes the given `PATH` and returns a virtual representation of it.',
    function* ([path], c) {
      yield [clonePath(c, path!)];
    },
  ),
  proc(
    'apoc.create.clonePathsToVirtual(paths :: LIST<PATH>) :: (path :: PATH)',
    'READ',
    'Takes the given `LIST<PATH>` and returns a virtual representation of them.',
    function* ([paths], c) {
      for (const p of listArg(paths)) yield [clonePath(c, p)];
    },
  ),
  fn('apoc.create.uuid() :: STRING', 'Returns a UUID.', () => randomUUID(), { deterministic: false }),
  fn('apoc.create.uuidBase64() :: STRING', 'Returns a UUID encoded with base64.', () => uuidToBase64(randomUUID()), {
    deterministic: false,
  }),
  fn(
    'apoc.create.uuidBase64ToHex(base64Uuid :: STRING) :: STRING',
    'Takes the given base64 encoded UUID and returns it as a hexadecimal `STRING`.',
    ([b]) => {
      if (b === null) return null;
      const hex = Buffer.from(valueText(b), 'base64').toString('hex');
      if (hex.length !== 32) throw illegalArgument(`Invalid UUID length. Expected 24 characters but got ${valueText(b).length}`);
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  ),
  fn(
    'apoc.create.uuidHexToBase64(uuid :: STRING) :: STRING',
    'Takes the given UUID represented as a hexadecimal `STRING` and returns it encoded with base64.',
    ([u]) => {
      if (u === null) return null;
      if (!/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(valueText(u)))
        throw illegalArgument(`Invalid UUID string: ${valueText(u)}`);
      return uuidToBase64(valueText(u));
    },
  ),
];
