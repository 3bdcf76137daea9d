import { randomFillSync } from 'node:crypto';

/** A source of uniformly distributed 32-bit unsigned integers. */
export interface Uint32Source {
  nextUint32(): number;
}

const POOL_SIZE = 16384;

/**
 * Cryptographic randomness, fetched in large blocks: one `randomFillSync` per 16k draws keeps the
 * simulator fast (a syscall per spin would dominate the run time).
 */
class CryptoUint32Source implements Uint32Source {
  private readonly pool = new Uint32Array(POOL_SIZE);
  private index = POOL_SIZE;

  nextUint32(): number {
    if (this.index === POOL_SIZE) {
      randomFillSync(this.pool);
      this.index = 0;
    }
    return this.pool[this.index++]!;
  }
}

const TWO_POW_32 = 0x1_0000_0000;

/**
 * Uniform integers in [0, n) by rejection sampling: draws at or above the largest multiple of n
 * below 2^32 are thrown away, so every result is equally likely (a bare `% n` would favour low
 * values whenever n does not divide 2^32).
 */
export class Rng {
  constructor(private readonly source: Uint32Source = new CryptoUint32Source()) {}

  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0 || n > TWO_POW_32) throw new RangeError(`bad range ${n}`);
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      const u = this.source.nextUint32();
      if (u < limit) return u % n;
    }
  }
}
