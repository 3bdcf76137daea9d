import { ApiPath, type Brand, type BrandWithMachines, type Machine } from '@reel/protocol/client';
import type { Settings } from '@reel/protocol/client';
import { api } from '@/lib/api-client';

type LobbyAnswer = BrandWithMachines[] | BrandWithMachines | { brand: Brand; machines: Machine[] }[];

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
    return normaliseLobby(
      await api.get<LobbyAnswer>(ApiPath.machineById.replace(':id', String(settings.LOBBY_ID)), { signal }),
    );
  }
  const [brands, all] = await Promise.all([
    api.get<Brand[]>(ApiPath.machineBrands, { signal }),
    api.get<LobbyAnswer>(ApiPath.machineAll, { signal }),
  ]);
  return joinBrands(Array.isArray(brands) ? brands : [], normaliseLobby(all));
}
