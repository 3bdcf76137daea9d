/**
 * The red-means-red fixtures: one deliberately failing test per Vitest project, at
 * `<project root>/red-fixture/red-means-red.fixture.ts`, included only when REEL_RED_FIXTURES=1.
 */
const RED_FIXTURE_GLOB = 'red-fixture/*.fixture.ts';
export const RED_FIXTURES = process.env.REEL_RED_FIXTURES === '1' ? [RED_FIXTURE_GLOB] : [];
