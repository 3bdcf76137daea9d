/**
 * Each brand group's look on its cabinets and in the lobby: marquee title, background, marquee and
 * trim colours. The cabinet's renderer paints its screen with it and the server draws a brand
 * picture with it when a machine has no recent screen snapshot, so both show the same brand.
 * The demo brands have their own palettes; any other brand gets one picked from its name.
 */
export interface BrandArt {
  title: string;
  /** Background gradient, top to bottom. */
  background: [string, string];
  /** Marquee gradient, top to bottom. */
  marquee: [string, string];
  /** Title and frame trim. */
  trim: string;
  /** A symbol the brand features on its art (a SlotSymbol name). */
  feature: string;
}

type Palette = Omit<BrandArt, 'title'>;

const PALETTES: readonly Palette[] = [
  { background: ['#2a0845', '#0b0220'], marquee: ['#c8102e', '#5a0010'], trim: '#ffe27a', feature: 'SEVEN' },
  { background: ['#3b2a00', '#120c00'], marquee: ['#d4a017', '#6b4f00'], trim: '#fff1b8', feature: 'BAR' },
  { background: ['#0b3d1a', '#021208'], marquee: ['#ff7a18', '#8a3500'], trim: '#fffbe0', feature: 'MELON' },
  { background: ['#062a4a', '#010a14'], marquee: ['#1e90ff', '#0a3d73'], trim: '#bfe6ff', feature: 'BELL' },
  { background: ['#3a0a2a', '#12020c'], marquee: ['#ff3ba7', '#70104a'], trim: '#ffd1ec', feature: 'CHERRY' },
];

/** The seeded demo brands, each with its own look. */
const KNOWN: Record<string, number> = { 'golden reels': 1, 'lucky sevens': 0, 'fruit palace': 2 };

function hash(text: string): number {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
  return h;
}

export function brandArt(brandName: string): BrandArt {
  const key = brandName.trim().toLowerCase();
  const palette = PALETTES[KNOWN[key] ?? hash(key) % PALETTES.length]!;
  return { title: brandName.trim().toUpperCase() || 'REEL LIVE', ...palette };
}

/**
 * The wall behind the cabinet in the camera view (`camera` video type). No screen of any brand is
 * this colour, so a viewer (and the e2e test) can tell the camera picture from the screen.
 */
export const CAMERA_BACKDROP = '#2f8f83';
