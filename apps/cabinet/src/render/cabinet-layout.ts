/** The cabinet's layout, designed at 640×360 and scaled to the band's size. */
import { ROWS } from '@reel/protocol';

export const DESIGN_W = 640;
export const DESIGN_H = 360;
export const REEL_X0 = 64;
export const REEL_PITCH = 103;
export const REEL_W = 100;
export const REEL_Y = 54;
export const CELL_H = 74;
export const WINDOW_H = CELL_H * ROWS;
export const PANEL_Y = 292;
export const BULBS_PER_SIDE = 9;
