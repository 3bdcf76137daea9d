import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/**
 * The first path segment of a page and the source modules it renders first (see
 * src/app/router.tsx and root-layout.tsx). A module that no longer exists fails the build.
 */
const SHELLS: Record<string, string[]> = {
  login: ['src/app/routes/login.tsx'],
  logout: ['src/app/routes/login.tsx'],
  callback: ['src/app/routes/login.tsx'],
  lobby: ['src/app/routes/lobby.tsx', 'src/app/signed-in-chrome.ts'],
  game: ['src/app/routes/game.tsx', 'src/app/signed-in-chrome.ts'],
  profile: ['src/app/routes/profile.tsx', 'src/app/signed-in-chrome.ts'],
  transactions: ['src/app/routes/history.tsx', 'src/app/signed-in-chrome.ts'],
  'slot-sessions': ['src/app/routes/history.tsx', 'src/app/signed-in-chrome.ts'],
};

/** The texts every page needs unless the player picked another language (DEFAULT_LANGUAGE, tr). */
const DEFAULT_TEXTS = 'src/locales/tr.ts';

/** Where the server looks for a page's shell: `shells/<first path segment>.html`. */
const SHELL_DIR = 'shells';

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((file): file is OutputChunk => file.type === 'chunk');
}

/** A chunk and everything it imports statically: what the browser fetches before running it. */
function closure(bundle: OutputBundle, fileNames: string[], into = new Set<string>()): Set<string> {
  for (const fileName of fileNames) {
    const chunk = bundle[fileName];
    if (into.has(fileName) || !chunk || chunk.type !== 'chunk') continue;
    into.add(fileName);
    closure(bundle, chunk.imports, into);
  }
  return into;
}

/**
 * Writes, beside index.html, one copy of it per page in SHELLS that names the page's own chunks and
 * the default texts as module preloads. Without them the browser learns of those chunks only once
 * the main bundle has downloaded and run, one round trip after it; with them they download
 * alongside it. The server sends the matching shell for a page (apps/server site routes).
 */
export function routeShells(): Plugin {
  let root = '';
  return {
    name: 'reel-route-shells',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      const entry = chunks(bundle).find((chunk) => chunk.isEntry);
      if (!html || html.type !== 'asset' || !entry) return;
      const byModule = new Map<string, string>();
      for (const chunk of chunks(bundle)) {
        if (chunk.facadeModuleId) byModule.set(path.relative(root, chunk.facadeModuleId).split(path.sep).join('/'), chunk.fileName);
      }
      // index.html already names the entry and its static imports.
      const inIndex = closure(bundle, [entry.fileName]);
      const source = String(html.source);
      for (const [segment, modules] of Object.entries(SHELLS)) {
        const roots = [...modules, DEFAULT_TEXTS].map((module) => {
          const file = byModule.get(module);
          if (!file) this.error(`route shell ${segment}: no chunk for ${module}`);
          return file;
        });
        const files = [...closure(bundle, roots)].filter((file) => !inIndex.has(file));
        const tags = files.map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`).join('');
        this.emitFile({ type: 'asset', fileName: `${SHELL_DIR}/${segment}.html`, source: source.replace('  </head>', `${tags}  </head>`) });
      }
    },
  };
}
