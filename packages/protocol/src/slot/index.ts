/** The video slot the simulated cabinets play, shared so the server can publish what they play. */
export * from './config.js';
export * from './line.js';
export * from './math.js';
export * from './paytable.js';
export * from './brand-art.js';
export * from './symbol-art.js';
export { SYMBOL_IDS } from './symbol-ids.js';
