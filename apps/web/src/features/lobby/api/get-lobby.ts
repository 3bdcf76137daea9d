import type { Brand, BrandWithMachines, Settings } from '@reel/protocol/client';
import { getAllMachines } from './get-all-machines';
import { getBrandMachines } from './get-brand-machines';
import { getMachineBrands } from './get-machine-brands';
import type { LobbyAnswer } from './lobby-answer';

/** The spec allows "list or object with brand and machines"; both become a list. */
function normaliseLobby(answer: LobbyAnswer | null | undefined): BrandWithMachines[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list
    .filter((entry) => entry && typeof entry === 'object' && entry.brand)
    .map((entry) => ({
      brand: { ...entry.brand, machineCount: entry.brand.machineCount ?? entry.machines?.length ?? 0 },
      machines: Array.isArray(entry.machines) ? entry.machines : [],
    }));
}

/**
 * The brand groups as `GET /machine/brands` lists them (name, jackpots, machine count, in its
 * order), each with its machines from the machine list. A brand the list does not name is not shown.
 */
function joinBrands(brands: Brand[], groups: BrandWithMachines[]): BrandWithMachines[] {
  return brands.map((brand) => ({
    brand: { ...brand, machineCount: brand.machineCount ?? 0 },
    machines: groups.find((group) => group.brand.id === brand.id)?.machines ?? [],
  }));
}

/** Single-lobby mode shows one brand's machines (GET /machine/{id}); otherwise every group. */
export async function fetchLobby(
  settings: Pick<Settings, 'SINGLE_LOBBY' | 'LOBBY_ID'>,
  signal?: AbortSignal,
) {
  if (settings.SINGLE_LOBBY && settings.LOBBY_ID) {
    return normaliseLobby(await getBrandMachines(settings.LOBBY_ID, signal));
  }
  const [brands, all] = await Promise.all([getMachineBrands(signal), getAllMachines(signal)]);
  return joinBrands(Array.isArray(brands) ? brands : [], normaliseLobby(all));
}
