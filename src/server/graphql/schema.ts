/**
 * The executable schema: the SDL of `type-defs.ts` with the resolvers and scalars attached. One
 * schema object serves every transport (mercurius over HTTP, graphql-ws, graphql-sse).
 */
import { buildSchema, GraphQLObjectType, GraphQLScalarType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { nodeFields, relationshipFields } from './resolvers/entity-fields.js';
import { mutationResolvers } from './resolvers/mutation.js';
import { queryResolvers } from './resolvers/query.js';
import { subscriptionResolvers } from './resolvers/subscription.js';
import { DateTimeScalar, FloatArrayScalar, JsonScalar } from './scalars.js';
import type { ChangeHub } from './subscriptions/change-hub.js';
import { typeDefs } from './type-defs.js';

type Resolver = GraphQLFieldResolver<unknown, unknown, never>;
type FieldResolvers = Readonly<Record<string, Resolver | { subscribe: Resolver; resolve: Resolver }>>;

function attachFields(schema: GraphQLSchema, typeName: string, resolvers: FieldResolvers): void {
  const type = schema.getType(typeName);
  if (!(type instanceof GraphQLObjectType)) throw new Error(`schema has no object type ${typeName}`);
  const fields = type.getFields();
  for (const [name, resolver] of Object.entries(resolvers)) {
    const field = fields[name];
    if (field === undefined) throw new Error(`schema type ${typeName} has no field ${name}`);
    if (typeof resolver === 'function') field.resolve = resolver as GraphQLFieldResolver<unknown, unknown>;
    else {
      field.subscribe = resolver.subscribe as GraphQLFieldResolver<unknown, unknown>;
      field.resolve = resolver.resolve as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}

function attachScalar(schema: GraphQLSchema, implementation: GraphQLScalarType): void {
  const type = schema.getType(implementation.name);
  if (!(type instanceof GraphQLScalarType)) throw new Error(`schema has no scalar ${implementation.name}`);
  type.serialize = implementation.serialize;
  type.parseValue = implementation.parseValue;
  type.parseLiteral = implementation.parseLiteral;
}

/** Builds the schema whose subscriptions are fed by `hub`. */
export function createSchema(hub: ChangeHub): GraphQLSchema {
  const schema = buildSchema(typeDefs);
  for (const scalar of [JsonScalar, DateTimeScalar, FloatArrayScalar]) attachScalar(schema, scalar);
  attachFields(schema, 'Query', queryResolvers as unknown as FieldResolvers);
  attachFields(schema, 'Mutation', mutationResolvers as unknown as FieldResolvers);
  attachFields(schema, 'Subscription', subscriptionResolvers(hub) as unknown as FieldResolvers);
  attachFields(schema, 'Node', nodeFields as unknown as FieldResolvers);
  attachFields(schema, 'Relationship', relationshipFields as unknown as FieldResolvers);
  return schema;
}
