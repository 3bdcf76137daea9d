import { DEFAULT_QUALITY_BANDS, type QualityBand } from '@reel/protocol';

export const DEFAULT_BANDS: readonly QualityBand[] = DEFAULT_QUALITY_BANDS;
export const DEFAULT_BAND_ID = 'high';
export const FPS = 30;
export const KEYFRAME_INTERVAL_FRAMES = 30;
