export { Spectators, type WatchVideo } from './spectators.js';
export { watchRoutes } from './watch-routes.js';
