export { signGrant, verifyGrant, DEFAULT_GRANT_TTL_MS, type GrantError } from './grant.js';
export * from './band-stepper.js';
