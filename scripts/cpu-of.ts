/**
 * `tsx scripts/cpu-of.ts <command> [args…]`: runs the command with its output inherited, then
 * writes the CPU seconds its whole process tree used to fd 3 and exits with the command's code.
 * stage-runner.ts uses it for stages that run beside others, whose CPU time the runner itself
 * could not tell apart.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { childrenCpuSeconds } from './stage-table.js';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: tsx scripts/cpu-of.ts <command> [args…]');
  process.exit(2);
}
const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
const cpu = childrenCpuSeconds();
if (cpu !== undefined) fs.writeSync(3, String(cpu));
process.exit(result.status ?? 1);
