/**
 * What a browser needs from the contract without the schema library: codes, constants, paths,
 * WebSocket messages, and the REST types (types only, erased at build time).
 */
export * from './codes.js';
export * from './constants.js';
export * from './protection.js';
export * from './paths.js';
export * from './ws-constants.js';
// The slot symbols' artwork, for the game recall (no schemas in it).
export * from './slot/symbol-art.js';
export { SYMBOL_IDS } from './slot/symbol-ids.js';
// Types only: the client→server schemas are built with the schema library at module load.
export type * from './ws.js';
// Types only: the server→client schemas would pull the REST and agent schemas into the bundle.
export type * from './ws-server.js';
export type * from './rest.js';
