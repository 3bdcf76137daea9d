/**
 * Which built HTML file answers a page of the single-page app, and the hint that goes with it.
 * The web build writes `shells/<first path segment>.html` for its main pages: index.html plus
 * module preloads of that page's own chunks (apps/web/vite/route-shells.ts). Any other page gets
 * index.html.
 */
import fs from 'node:fs';
import path from 'node:path';
import { RootPath } from '@reel/protocol';

const SEGMENT = /^[a-z][a-z0-9-]*$/;

/** The file, relative to the build folder, that answers `pathname`. */
export function shellFor(dist: string, pathname: string): string {
  const segment = pathname.split('/')[1] ?? '';
  if (!SEGMENT.test(segment)) return 'index.html';
  const shell = `shells/${segment}.html`;
  return fs.existsSync(path.join(dist, shell)) ? shell : 'index.html';
}

/**
 * A `Link` preload of the IP check, which every page asks before it shows anything while the
 * country policy is on (`{API_URL}../check`, apps/web/src/lib/api-client.ts checkUrl). Named in the page's answer, it
 * runs while the bundle downloads instead of after it has run. Only for an API_URL that is a path
 * from the site root: a relative one resolves against each page differently, an absolute one may
 * be another origin, and a hint the page does not use is a wasted request.
 */
export function checkPreloadLink(apiUrl: string): string | null {
  const api = apiUrl || '/api/';
  if (!api.startsWith('/') || api.startsWith('//')) return null;
  const site = 'http://site.invalid/';
  const base = new URL(api, site);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const check = new URL(`..${RootPath.check}`, base);
  if (check.origin !== new URL(site).origin) return null;
  return `<${check.pathname}>; rel=preload; as=fetch; crossorigin`;
}
