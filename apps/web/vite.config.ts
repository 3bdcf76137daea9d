import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import { routeShells } from './vite/route-shells';

const backend = process.env.REEL_BACKEND ?? 'http://127.0.0.1:8080';

/**
 * Writes a `.br` (quality 11) and a `.gz` (level 9) beside every text file of the build that is
 * worth it, for the server to send as they are (@fastify/static `preCompressed`): smaller than what
 * it could afford to compress per request, and no compression work per request at all.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|css|html|svg|json)$/;
  const MIN_BYTES = 1024;
  let outDir = '';
  return {
    name: 'reel-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle)) {
        if (!TEXT.test(fileName) || fileName.startsWith('.vite/')) continue;
        const file = path.join(outDir, fileName);
        const body = fs.readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  base: '/',
  plugins: [routeShells(), precompress()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    manifest: true,
    target: 'es2022',
    sourcemap: false,
    rolldownOptions: {
      // TanStack Query marks its modules "use client" for React Server Components; this app has
      // none, so the bundler's note that the directive is dropped is noise.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: backend, changeOrigin: true },
      '/ws': {
        target: backend,
        ws: true,
        changeOrigin: true,
        // The server lets only its own origin (or WS_ALLOWED_ORIGINS) open the browser sockets; the
        // dev server's pages are the backend's own here, so say so.
        configure: (proxy) => proxy.on('proxyReqWs', (proxyReq) => proxyReq.setHeader('origin', backend)),
      },
      '/check': { target: backend, changeOrigin: true },
      '/Settings.json': { target: backend, changeOrigin: true },
    },
  },
});
