/** The EXPLAIN / PROFILE plan of a result as a tree of operators with their figures. */
import type { Plan, ProfiledPlan } from 'neo4j-driver';
import { h } from './dom.js';
import { cellText } from './values.js';

function operator(plan: Plan | ProfiledPlan, profiled: boolean): HTMLElement {
  const args = plan.arguments as Record<string, unknown>;
  const details = args.Details ?? args.details;
  const estimated = args.EstimatedRows;
  const figures: string[] = [];
  if (estimated !== undefined) figures.push(`est. ${Math.round(Number(estimated))} rows`);
  if (profiled) {
    const p = plan as ProfiledPlan;
    figures.push(`${p.rows} rows`, `${p.dbHits} db hits`);
  }
  return h(
    'li',
    {},
    h(
      'div',
      { class: 'operator' },
      h('strong', {}, plan.operatorType.replace(/@.*$/, '')),
      details !== undefined ? h('code', {}, typeof details === 'string' ? details : cellText(details)) : null,
      plan.identifiers.length > 0 ? h('span', { class: 'muted' }, plan.identifiers.join(', ')) : null,
      figures.length > 0 ? h('span', { class: 'figures' }, figures.join(' · ')) : null,
    ),
    plan.children.length > 0
      ? h(
          'ul',
          {},
          plan.children.map((child) => operator(child, profiled)),
        )
      : null,
  );
}

/** The plan tree element (root operator at the top, as Neo4j Browser draws it). */
export function planView(plan: Plan | ProfiledPlan, profiled: boolean): HTMLElement {
  return h('div', { class: 'plan-view', 'data-testid': 'plan' }, h('ul', { class: 'plan-tree' }, operator(plan, profiled)));
}
