import { describe, expect, it } from 'vitest';
import { isAbortedDownload } from './aborted-download.js';

describe('isAbortedDownload', () => {
  it('knows the compression pipe logging the Error itself, and the { err } form', () => {
    expect(isAbortedDownload(new Error('premature close'))).toBe(true);
    expect(isAbortedDownload({ err: new Error('premature close') })).toBe(true);
    expect(isAbortedDownload({ err: { type: 'Error', message: 'premature close' } })).toBe(true);
  });

  it('leaves every other error alone', () => {
    expect(isAbortedDownload(new Error('ECONNRESET'))).toBe(false);
    expect(isAbortedDownload({ err: new Error('boom') })).toBe(false);
    expect(isAbortedDownload('premature close')).toBe(false);
    expect(isAbortedDownload(undefined)).toBe(false);
    expect(isAbortedDownload(null)).toBe(false);
  });
});
