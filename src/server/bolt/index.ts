/**
 * The Bolt server: `startBoltServer({ port, host, engine, authenticate, tls, logger })`.
 * Layers: socket -> handshake -> chunking -> PackStream -> messages -> state machine -> engine.
 */
export { startBoltServer } from './server.js';
export type { AuthToken, AuthenticateCallback, BoltEngine, BoltLogger, BoltServer, BoltServerOptions, BoltTlsOptions } from './options.js';
export { SUPPORTED_VERSIONS, type BoltVersion } from './protocol/versions.js';
