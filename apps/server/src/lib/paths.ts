import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (this file is apps/server/src/lib/paths.ts). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Routes are mounted under the API base `/api`. The spec lists some paths with their `/api` prefix
 * (e.g. `/api/chat/contacts`); inside the base they are `/chat/contacts`.
 */
export const underApiBase = (path: string) => path.replace(/^\/api(?=\/)/, '');
