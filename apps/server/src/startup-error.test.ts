import { describe, expect, it } from 'vitest';
import { isTransientStartupError } from './startup-error.js';

describe('a start that failed', () => {
  it('is transient (a crash npm start restarts) only when marked so, like a media process too slow to become ready', () => {
    expect(isTransientStartupError(Object.assign(new Error('media process did not become ready'), { transient: true }))).toBe(true);
    expect(isTransientStartupError(Object.assign(new Error('port in use'), { code: 'EADDRINUSE' }))).toBe(false);
    expect(isTransientStartupError(undefined)).toBe(false);
  });
});
