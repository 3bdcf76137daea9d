import { describe, expect, it } from 'vitest';
import { createGeoService } from './geo.js';

describe('geo', () => {
  it('maps CIDR ranges to countries and applies the allow-list only when enabled', async () => {
    const table = [
      { cidr: '203.0.113.0/24', country: 'tr' },
      { cidr: '198.51.100.0/24', country: 'DE' },
    ];
    const on = await createGeoService({ enabled: true, allowedCountries: ['TR'], cidrTable: table });
    expect(on.countryOf('203.0.113.9')).toBe('TR');
    expect(on.countryOf('::ffff:198.51.100.7')).toBe('DE');
    expect(on.countryOf('127.0.0.1')).toBe('LOCAL');
    expect(on.countryOf('not an ip')).toBe('UNKNOWN');
    expect(on.isAllowed('203.0.113.9')).toBe(true);
    expect(on.isAllowed('198.51.100.7')).toBe(false);
    expect(on.isAllowed('8.8.8.8')).toBe(false);
    const off = await createGeoService({ enabled: false, allowedCountries: ['TR'], cidrTable: table });
    expect(off.isAllowed('198.51.100.7')).toBe(true);
  });
});
