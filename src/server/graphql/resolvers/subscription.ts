/**
 * `Subscription` resolvers: each field opens a ChangeHub subscription (read permission) whose
 * bounded queue is the source stream; `resolve` passes each payload through.
 */
import type { GraphqlContext } from '../context.js';
import type { ChangeHub, ChangeKind } from '../subscriptions/change-hub.js';

interface FilterArgs {
  readonly id?: string | null;
  readonly labels?: readonly string[] | null;
  readonly types?: readonly string[] | null;
}

function field(hub: ChangeHub, kind: ChangeKind) {
  return {
    subscribe: (_root: unknown, args: FilterArgs, context: GraphqlContext) => {
      context.graph.authorize('read');
      return hub.subscribe(kind, context.graph.database, {
        names: args.labels ?? args.types ?? [],
        elementId: args.id ?? null,
      });
    },
    resolve: (payload: unknown) => payload,
  };
}

/** The `Subscription` type over `hub`. */
export function subscriptionResolvers(hub: ChangeHub) {
  return {
    nodeCreated: field(hub, 'nodeCreated'),
    nodeUpdated: field(hub, 'nodeUpdated'),
    nodeDeleted: field(hub, 'nodeDeleted'),
    relationshipCreated: field(hub, 'relationshipCreated'),
    relationshipUpdated: field(hub, 'relationshipUpdated'),
    relationshipDeleted: field(hub, 'relationshipDeleted'),
  };
}
