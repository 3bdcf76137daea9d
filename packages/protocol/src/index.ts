export * from './codes.js';
export * from './constants.js';
export * from './paths.js';
export * from './rest.js';
export * from './ws.js';
export * from './agent.js';
export * from './media.js';
export * from './text.js';
