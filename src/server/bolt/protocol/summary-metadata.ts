import type { Notification, PlanDescription, ResultSummary } from '../../../engine/index.js';
import { applyNotificationFilter, notificationCategory, type NotificationFilter } from './notification-filter.js';
import type { ProtocolFeatures } from './versions.js';

/** Metadata object sent in a SUCCESS; integers are bigint, absent keys are left out. */
export type Metadata = Record<string, unknown>;

/** Summary counter names on the wire (`stats`), in Neo4j's hyphenated form. */
const COUNTER_KEYS: ReadonlyArray<readonly [keyof ResultSummary['counters'], string]> = [
  ['nodesCreated', 'nodes-created'],
  ['nodesDeleted', 'nodes-deleted'],
  ['relationshipsCreated', 'relationships-created'],
  ['relationshipsDeleted', 'relationships-deleted'],
  ['propertiesSet', 'properties-set'],
  ['labelsAdded', 'labels-added'],
  ['labelsRemoved', 'labels-removed'],
  ['indexesAdded', 'indexes-added'],
  ['indexesRemoved', 'indexes-removed'],
  ['constraintsAdded', 'constraints-added'],
  ['constraintsRemoved', 'constraints-removed'],
  ['systemUpdates', 'system-updates'],
];

/** SUCCESS of a RUN: result keys, time to the first record, and the statement id inside a tx. */
export function runSuccess(keys: readonly string[], firstRecordMs: number, qid: number | null, database: string | null): Metadata {
  return {
    fields: keys,
    t_first: BigInt(Math.round(firstRecordMs)),
    qid: qid === null ? undefined : BigInt(qid),
    db: database ?? undefined,
  };
}

/** What a finished stream looked like, for the GQL status of 5.5+ summaries. */
export interface StreamOutcome {
  readonly hadKeys: boolean;
  readonly streamedRecords: boolean;
}

/** SUCCESS ending a stream: type, timings, counters, plan/profile, notifications, bookmark. */
export function streamSummary(
  summary: ResultSummary,
  features: ProtocolFeatures,
  outcome: StreamOutcome,
  bookmark: string | undefined,
  filter: NotificationFilter,
): Metadata {
  const notifications = applyNotificationFilter(summary.notifications, filter);
  const metadata: Metadata = {
    bookmark,
    type: summary.queryType,
    t_last: BigInt(Math.round(summary.resultConsumedAfter)),
    db: summary.database,
  };
  const stats = statsOf(summary.counters);
  if (stats) metadata.stats = stats;
  if (summary.profile) metadata.profile = planToMetadata(summary.profile, true);
  else if (summary.plan) metadata.plan = planToMetadata(summary.plan, false);
  if (features.gqlStatuses) metadata.statuses = statusesOf(notifications, outcome);
  else if (notifications.length > 0) metadata.notifications = notifications.map(notificationToMetadata);
  return metadata;
}

function statsOf(counters: ResultSummary['counters']): Metadata | null {
  const stats: Metadata = {};
  let any = false;
  for (const [key, wire] of COUNTER_KEYS) {
    const value = counters[key];
    if (typeof value === 'number' && value !== 0) {
      stats[wire] = BigInt(value);
      any = true;
    }
  }
  if (counters.containsUpdates) {
    stats['contains-updates'] = true;
    any = true;
  }
  if (counters.systemUpdates > 0) stats['contains-system-updates'] = true;
  return any ? stats : null;
}

/** A plan operator in Neo4j's summary shape (`operatorType`, `identifiers`, `args`, `children`). */
export function planToMetadata(plan: PlanDescription, profiled: boolean): Metadata {
  const metadata: Metadata = {
    operatorType: plan.operatorType,
    identifiers: plan.identifiers,
    args: plan.arguments,
    children: plan.children.map((child) => planToMetadata(child, profiled)),
  };
  if (profiled) {
    metadata.rows = BigInt(plan.rows ?? 0);
    metadata.dbHits = BigInt(plan.dbHits ?? 0);
  }
  return metadata;
}

function positionOf(notification: Notification): Metadata | undefined {
  const p = notification.position;
  return p ? { offset: BigInt(p.offset), line: BigInt(p.line), column: BigInt(p.column) } : undefined;
}

function notificationToMetadata(notification: Notification): Metadata {
  return {
    code: notification.code,
    title: notification.title,
    description: notification.description,
    severity: notification.severity,
    category: notificationCategory(notification.code),
    position: positionOf(notification),
  };
}

const DIAGNOSTIC_DEFAULTS = { OPERATION: '', OPERATION_CODE: '0', CURRENT_SCHEMA: '/' } as const;

function statusesOf(notifications: readonly Notification[], outcome: StreamOutcome): Metadata[] {
  const head = !outcome.hadKeys
    ? { gql_status: '00001', status_description: 'note: successful completion - omitted result' }
    : outcome.streamedRecords
      ? { gql_status: '00000', status_description: 'note: successful completion' }
      : { gql_status: '02000', status_description: 'note: no data' };
  const statuses: Metadata[] = [{ ...head, diagnostic_record: { ...DIAGNOSTIC_DEFAULTS } }];
  for (const notification of notifications) {
    const warning = notification.severity === 'WARNING';
    statuses.push({
      gql_status: warning ? '01N42' : '03N42',
      status_description: notification.description,
      neo4j_code: notification.code,
      title: notification.title,
      description: notification.description,
      diagnostic_record: {
        ...DIAGNOSTIC_DEFAULTS,
        _severity: notification.severity,
        _classification: notificationCategory(notification.code),
        _position: positionOf(notification),
      },
    });
  }
  return statuses;
}
