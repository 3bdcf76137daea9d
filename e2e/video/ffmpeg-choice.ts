/**
 * The ffmpeg binaries the product may pick (apps/cabinet/src/media/ffmpeg-path.ts): the video
 * tests run once per binary, as Playwright projects, with the cabinet process started with
 * `FFMPEG` set to it. A binary that is absent on this machine skips its project with a printed reason.
 */
import { existsSync } from 'node:fs';
import { test, type TestInfo } from '@playwright/test';
import { bundledFfmpeg, SYSTEM_FFMPEG } from '../../apps/cabinet/src/media/ffmpeg-path.js';

export interface FfmpegChoice {
  /** Project name suffix: `system` or `bundled`. */
  name: 'system' | 'bundled';
  /** Absolute path, or null when the package is not installed. */
  path: string | null;
}

export const FFMPEG_CHOICES: FfmpegChoice[] = [
  { name: 'system', path: SYSTEM_FFMPEG },
  { name: 'bundled', path: bundledFfmpeg() },
];

/**
 * The whole-product smoothness test (e2e/video/smooth-video.e2e.ts) plays one machine per ffmpeg
 * in one product: video-product.ts starts it with `CABINET_FFMPEG` naming each machine's binary,
 * so both builds are tested without starting the product twice.
 */
export const SMOOTH_MACHINES: Record<FfmpegChoice['name'], number> = { system: 1, bundled: 2 };

/** `CABINET_FFMPEG` for the e2e product: each present binary on its machine. */
export function smoothMachinesEnv(): string {
  return FFMPEG_CHOICES.filter((c) => c.path && existsSync(c.path))
    .map((c) => `${SMOOTH_MACHINES[c.name]}=${c.path}`)
    .join(',');
}

/** The binary of the running project (set in playwright.config.ts as `metadata.ffmpeg`). */
function projectFfmpeg(info: TestInfo = test.info()): FfmpegChoice | null {
  const choice = info.project.metadata?.ffmpeg as FfmpegChoice | undefined;
  return choice ?? null;
}

/**
 * Skips the current test (with the reason on stdout) when the project's binary is absent;
 * returns the path to put into `FFMPEG` otherwise (undefined outside the ffmpeg projects).
 */
export function requireProjectFfmpeg(): string | undefined {
  const choice = projectFfmpeg();
  if (!choice) return undefined;
  if (!choice.path || !existsSync(choice.path)) {
    const reason = `${choice.name} ffmpeg ABSENT (${choice.path ?? 'no binary from @ffmpeg-installer/linux-x64'}): skipped`;
    console.log(reason);
    test.skip(true, reason);
  }
  console.log(`ffmpeg: ${choice.name} ${choice.path}`);
  return choice.path!;
}
