/**
 * Routes are mounted under the API base `/api`. The spec lists some paths with their `/api` prefix
 * (e.g. `/api/chat/contacts`); inside the base they are `/chat/contacts`.
 */
export const underApiBase = (path: string) => path.replace(/^\/api(?=\/)/, '');
