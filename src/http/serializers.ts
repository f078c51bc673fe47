import { SerializerSelector, type Serializer, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify's own response serializers, each compiled when its route first answers with that status rather than all
 * before the server listens. Compiling them all took most of start-up (over a second on two cores for shipd's
 * routes, each resolving its references against every shared schema), and many routes may never answer at all.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: Serializer | undefined;
    return (doc) => (serialize ??= compile(route))(doc);
  };
};
