/** The table `npm test` ends with: every stage, whether it passed, and how long it took. */
export interface StageResult {
  title: string;
  ok: boolean;
  seconds: number;
}

const minutes = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

export function formatStageTable(stages: StageResult[], totalSeconds: number): string {
  const width = Math.max(5, ...stages.map((stage) => stage.title.length));
  const row = (title: string, result: string, seconds: number) =>
    `${title.padEnd(width)}  ${result.padEnd(6)}  ${String(seconds).padStart(5)} s  ${minutes(seconds).padStart(6)}`;
  return [
    `${'stage'.padEnd(width)}  ${'result'.padEnd(6)}  ${'time'.padStart(7)}  ${'m:ss'.padStart(6)}`,
    ...stages.map((stage) => row(stage.title, stage.ok ? 'passed' : 'FAILED', stage.seconds)),
    row('total (with installs and set-up)', '', totalSeconds),
  ].join('\n');
}
