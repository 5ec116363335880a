import type { Notification } from '../../../engine/index.js';
import { stringOf, stringsOf, type WireMap } from './messages.js';

/**
 * Notification filters of Bolt 5.2+: `notifications_minimum_severity` (`OFF`, `WARNING`,
 * `INFORMATION`) and disabled categories (`notifications_disabled_categories`, renamed
 * `notifications_disabled_classifications` in 5.5). Set on HELLO for the connection, and on
 * BEGIN/RUN for one transaction or statement.
 */
export interface NotificationFilter {
  readonly minimumSeverity: 'OFF' | 'WARNING' | 'INFORMATION' | null;
  readonly disabledCategories: readonly string[] | null;
}

/** No filtering. */
export const NO_FILTER: NotificationFilter = { minimumSeverity: null, disabledCategories: null };

/** Reads a filter from HELLO/BEGIN/RUN metadata; absent keys fall back to `base`. */
export function notificationFilterOf(extra: WireMap, base: NotificationFilter): NotificationFilter {
  const severity = stringOf(extra, 'notifications_minimum_severity');
  const hasCategories = extra.has('notifications_disabled_categories') || extra.has('notifications_disabled_classifications');
  return {
    minimumSeverity: severity === 'OFF' || severity === 'WARNING' || severity === 'INFORMATION' ? severity : base.minimumSeverity,
    disabledCategories: hasCategories
      ? [...stringsOf(extra, 'notifications_disabled_categories'), ...stringsOf(extra, 'notifications_disabled_classifications')]
      : base.disabledCategories,
  };
}

/** The category (classification) of a notification: the third segment of its code. */
export function notificationCategory(code: string): string {
  const segment = code.split('.')[2] ?? '';
  const known: Record<string, string> = {
    Statement: 'GENERIC',
    Schema: 'SCHEMA',
    Database: 'TOPOLOGY',
    Security: 'SECURITY',
    Performance: 'PERFORMANCE',
    Deprecation: 'DEPRECATION',
    Hint: 'HINT',
    Unrecognized: 'UNRECOGNIZED',
    Unsupported: 'UNSUPPORTED',
  };
  return known[segment] ?? 'GENERIC';
}

/** The notifications a filter lets through. */
export function applyNotificationFilter(notifications: readonly Notification[], filter: NotificationFilter): readonly Notification[] {
  if (filter.minimumSeverity === null && filter.disabledCategories === null) return notifications;
  if (filter.minimumSeverity === 'OFF') return [];
  return notifications.filter(
    (n) =>
      !(filter.minimumSeverity === 'WARNING' && n.severity === 'INFORMATION') &&
      !(filter.disabledCategories?.includes(notificationCategory(n.code)) ?? false),
  );
}
