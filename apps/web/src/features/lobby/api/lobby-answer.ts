import type { Brand, BrandWithMachines, Machine } from '@reel/protocol/client';

/** The spec allows "list or object with brand and machines" for the machine lists. */
export type LobbyAnswer = BrandWithMachines[] | BrandWithMachines | { brand: Brand; machines: Machine[] }[];
