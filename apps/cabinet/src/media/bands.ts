import { BASE_FPS, DEFAULT_QUALITY_BANDS, type QualityBand } from '@reel/protocol';

export const DEFAULT_BANDS: readonly QualityBand[] = DEFAULT_QUALITY_BANDS;
export const DEFAULT_BAND_ID = 'high';
/** The default frame rate (Settings.json `FPS` replaces it once the server names it). */
export const FPS = BASE_FPS;
