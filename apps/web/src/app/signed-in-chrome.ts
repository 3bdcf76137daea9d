/**
 * What every signed-in page has around its content, as one lazy chunk (vite.config.ts groups it
 * with the features it draws): the app layout unless the route has no chrome, and the overlays.
 */
export { default as AppLayout } from './layouts/app-layout';
export { default as SignedInOverlays } from './signed-in-overlays';
