/**
 * What every signed-in page has around its content, as one lazy chunk: the app layout (unless the
 * route has no chrome) and the overlays. One chunk instead of two, each with its own small shared
 * chunks, saves the lobby several requests at start (docs/web.md, start-up speed).
 */
export { default as AppLayout } from './layouts/app-layout';
export { default as SignedInOverlays } from './signed-in-overlays';
