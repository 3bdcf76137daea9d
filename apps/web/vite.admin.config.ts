import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './vite/precompress';

/**
 * The operator console's own bundle (src/admin/main.tsx), built after the player's app into the
 * same dist: its page is `shells/admin.html`, which the server sends for /admin/* (a page's shell,
 * apps/server site routes), and its files sit under `assets/admin/`. A build of its own, not a lazy
 * route of the player's app: a lazy chunk sharing the player's modules made the bundler split the
 * player's shared chunks (3–4 more requests and ~1.3 KB more per page, docs/web.md).
 */
export default defineConfig({
  base: '/',
  plugins: [precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    // The player's build empties dist first; this one adds to it.
    emptyOutDir: false,
    // Under assets/: content-hashed, so the server lets browsers keep them (immutable).
    assetsDir: 'assets/admin',
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      input: fileURLToPath(new URL('./shells/admin.html', import.meta.url)),
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
