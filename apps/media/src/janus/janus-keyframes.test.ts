import { describe, expect, it } from 'vitest';
import { JoinRequestFilter, isKeyframeRequest } from './janus-keyframes.js';

const rr = Buffer.from([0x80, 201, 0, 1, 0, 0, 0, 1]);
const pli = Buffer.from([0x81, 206, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2]);
const fir = Buffer.from([0x84, 206, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0]);
const remb = Buffer.from([0x8f, 206, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0x52, 0x45, 0x4d, 0x42, 1, 0, 0, 0, 0, 0, 0, 2]);

describe('isKeyframeRequest', () => {
  it('finds a PLI or FIR, also behind a receiver report in a compound packet', () => {
    expect(isKeyframeRequest(pli)).toBe(true);
    expect(isKeyframeRequest(fir)).toBe(true);
    expect(isKeyframeRequest(Buffer.concat([rr, pli]))).toBe(true);
  });
  it('ignores receiver reports, REMB and garbage', () => {
    expect(isKeyframeRequest(rr)).toBe(false);
    expect(isKeyframeRequest(Buffer.concat([rr, remb.subarray(0, 20)]))).toBe(false);
    expect(isKeyframeRequest(Buffer.from([1, 2, 3, 4, 5]))).toBe(false);
  });
});

describe('JoinRequestFilter', () => {
  it("absorbs one request per announced join, and none once the join's window is over", () => {
    const f = new JoinRequestFilter();
    expect(f.absorbs(0)).toBe(false);
    f.expect(1000);
    f.expect(1200);
    expect(f.absorbs(1500)).toBe(true);
    expect(f.absorbs(1600)).toBe(true);
    expect(f.absorbs(1700)).toBe(false);
    f.expect(2000);
    expect(f.absorbs(2000 + 5001)).toBe(false);
  });
});
