/**
 * How `npm test` splits the live-video projects (e2e/video/playwright.config.ts) into two stages:
 * the product's video and its smoothness test alone, since counting freezes needs the two cores to
 * itself; every other project two at a time before it (each starts its own harness, product or
 * cluster on free ports, and none judges a frame rate: alone they left a core idle for ~3 minutes).
 * The config refuses to load when a project is in neither list, so none is left out or run twice.
 */
export const ALONE_PROJECTS = ['product-video'] as const;
export const PAIRED_PROJECTS = ['ffmpeg-system', 'ffmpeg-bundled', 'video-unavailable', 'cluster'] as const;
/** Workers of the paired stage. */
export const PAIRED_WORKERS = 2;

/** Playwright's arguments selecting these projects. */
export const projectArgs = (projects: readonly string[]) => projects.flatMap((name) => ['--project', name]);

export function assertEveryProjectStaged(names: string[]) {
  const staged = [...ALONE_PROJECTS, ...PAIRED_PROJECTS] as string[];
  const missing = names.filter((name) => !staged.includes(name));
  const gone = staged.filter((name) => !names.includes(name));
  if (missing.length || gone.length) {
    throw new Error(`e2e/video/video-stages.ts does not match the projects: not staged ${JSON.stringify(missing)}, staged but absent ${JSON.stringify(gone)}`);
  }
}
