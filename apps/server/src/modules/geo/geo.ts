/**
 * Country of an IP address: a configurable table of CIDR ranges first, then an optional MaxMind
 * (GeoLite2/GeoIP2 Country) database file. Loopback and private ranges are "LOCAL".
 */
import fs from 'node:fs';
import ipaddr from 'ipaddr.js';
import maxmind, { type CountryResponse, type Reader } from 'maxmind';

interface CidrEntry {
  cidr: string;
  country: string;
}
export interface GeoService {
  countryOf(ip: string): string;
  /** The IP check policy: allowed when checking is off, or the country is on the allow-list. */
  isAllowed(ip: string): boolean;
  enabled: boolean;
}

const LOCAL_COUNTRY = 'LOCAL';
const LOCAL_RANGES = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '::1/128', 'fc00::/7'];

function parse(ip: string) {
  try {
    const address = ipaddr.parse(ip);
    // IPv4 clients often arrive as ::ffff:a.b.c.d on a dual-stack socket.
    return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address;
  } catch {
    return undefined;
  }
}

export async function createGeoService(options: {
  enabled: boolean;
  allowedCountries: string[];
  cidrTable?: CidrEntry[];
  cidrFile?: string;
  maxmindDb?: string;
}): Promise<GeoService> {
  const table = [...(options.cidrTable ?? [])];
  if (options.cidrFile) table.push(...(JSON.parse(fs.readFileSync(options.cidrFile, 'utf8')) as CidrEntry[]));
  for (const cidr of LOCAL_RANGES) table.push({ cidr, country: LOCAL_COUNTRY });
  const ranges = table.map((entry) => ({ range: ipaddr.parseCIDR(entry.cidr), country: entry.country.toUpperCase() }));
  const reader: Reader<CountryResponse> | undefined =
    options.maxmindDb && fs.existsSync(options.maxmindDb) ? await maxmind.open<CountryResponse>(options.maxmindDb) : undefined;
  const allowed = new Set([...options.allowedCountries.map((c) => c.toUpperCase()), LOCAL_COUNTRY]);

  const countryOf = (ip: string) => {
    const address = parse(ip);
    if (!address) return 'UNKNOWN';
    for (const { range, country } of ranges) {
      if (address.kind() === range[0].kind() && address.match(range)) return country;
    }
    const found = reader?.get(address.toString());
    return found?.country?.iso_code ?? 'UNKNOWN';
  };
  return {
    enabled: options.enabled,
    countryOf,
    isAllowed: (ip) => !options.enabled || allowed.has(countryOf(ip)),
  };
}
