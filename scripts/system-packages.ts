/**
 * Debian packages the commands need (`npm test`, `npm run cluster`): installed with apt-get when
 * missing and running as root; otherwise the command says exactly what to install.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface SystemPackage {
  binary: string;
  pkg: string;
  why: string;
  /** Without it the command cannot run at all; otherwise what needs it is skipped. */
  required: boolean;
}

/** Returns the packages still missing (none when the install worked); exits when a required one is missing. */
export function ensureSystemPackages(packages: SystemPackage[], what: string): SystemPackage[] {
  const missing = packages.filter((p) => !fs.existsSync(p.binary));
  if (!missing.length) return [];
  const names = missing.map((p) => p.pkg);
  if (process.getuid?.() !== 0) {
    const hint = `install with: sudo apt-get install -y ${names.join(' ')}`;
    for (const p of missing) console.error(`Missing ${p.pkg} (${p.why})${p.required ? '' : ': what needs it is skipped'}.`);
    if (missing.some((p) => p.required)) {
      console.error(`Cannot run ${what}; ${hint}`);
      process.exit(1);
    }
    console.error(`To run it all, ${hint}`);
    return missing;
  }
  console.log(`Installing ${names.join(', ')} from Debian packages…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', ...names], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0) {
    console.error(`Could not install ${names.join(', ')}; ${what} cannot run.`);
    process.exit(1);
  }
  return [];
}
