export { spawnTied, type TiedSpawnOptions } from './spawn-tied.js';
export { stopProcess, isAlive, commandLineOf } from './stop-process.js';
