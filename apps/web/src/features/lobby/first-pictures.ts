import { machineImagePath, type BrandWithMachines, type Machine, type Settings } from '@reel/protocol/client';

/** The cards a phone or desktop shows without scrolling load their pictures at once. */
export const EAGER_CARDS = 6;

/** The reserved machines the all-groups lobby lists under its brand cards, in their order. */
export function reservedMachines(groups: readonly BrandWithMachines[]): Machine[] {
  return groups.flatMap((group) => group.machines.filter((machine) => machine.reservation));
}

/**
 * A card's picture: the operator's image as it is, else the computed path with the refresh round,
 * so the browser fetches the machine's current screen still again each round.
 */
export function machinePicture(machine: Machine, apiBase: string, round: number): string {
  return machine.image ? machine.image : `${machineImagePath(apiBase, machine)}?v=${round}`;
}

/**
 * The machines whose pictures a lobby page shows first (the page's largest paint): a brand's page
 * (`/lobby/:id/...`, or the single lobby) starts with that brand's machines, the all-groups page
 * with the reserved ones.
 */
function firstMachines(groups: readonly BrandWithMachines[], settings: Pick<Settings, 'SINGLE_LOBBY'>, pathname: string): Machine[] {
  const brandId = /^\/lobby\/([^/]+)\//.exec(pathname)?.[1];
  const brand = brandId !== undefined ? groups.find((group) => String(group.brand.id) === brandId) : settings.SINGLE_LOBBY ? groups[0] : undefined;
  return (brand ? brand.machines : reservedMachines(groups)).slice(0, EAGER_CARDS);
}

/**
 * Starts downloading those pictures as soon as the machine list is in, before the signed-in page
 * has rendered the cards; the cards then find them in the browser's image cache (same URLs, the
 * first refresh round).
 */
export function preloadFirstPictures(groups: readonly BrandWithMachines[], settings: Pick<Settings, 'SINGLE_LOBBY' | 'API_URL'>, pathname: string): void {
  if (typeof Image !== 'function') return;
  for (const machine of firstMachines(groups, settings, pathname)) {
    const image = new Image();
    image.fetchPriority = 'high';
    image.src = machinePicture(machine, settings.API_URL, 0);
  }
}
