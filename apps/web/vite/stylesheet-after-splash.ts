import type { Plugin } from 'vite';

/**
 * Moves the app's stylesheet links from the head to the end of the body, after the boot splash.
 * In the head they hold back the first paint until the stylesheet has downloaded; in the body
 * they hold back only what follows them, so the splash (styled inline in index.html) shows as soon
 * as the page arrives. The app is not shown unstyled: a parser-inserted stylesheet still holds back
 * every script until it has loaded, so React renders nothing before it.
 */
export function stylesheetAfterSplash(): Plugin {
  const STYLESHEET = /^[ \t]*<link rel="stylesheet"[^>]*>\n?/gm;
  return {
    name: 'reel-stylesheet-after-splash',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(STYLESHEET) ?? [];
        if (links.length === 0) return html;
        const moved = links.map((link) => `    ${link.trim()}\n`).join('');
        return html.replace(STYLESHEET, '').replace('  </body>', `${moved}  </body>`);
      },
    },
  };
}
