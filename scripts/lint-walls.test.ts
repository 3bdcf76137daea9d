/**
 * The lint walls hold: a planted import circle, an app importing another app, a feature reaching
 * into another feature's internals and an app building a contract schema of its own each make
 * `eslint` fail with the rule that guards it,
 * while the same import through the feature's index.ts passes. The planted files live for the
 * test only, beside real code, so the real config and resolver judge them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const planted: string[] = [];

function plant(relative: string, source: string) {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, source);
  planted.push(file);
  return file;
}

async function ruleIds(file: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintFiles([file]);
  return result!.messages.map((m) => m.ruleId);
}

afterAll(() => {
  for (const file of planted) fs.rmSync(file, { force: true });
  fs.rmSync(path.join(root, 'apps/server/src/lint-plant'), { recursive: true, force: true });
});

describe('lint walls', () => {
  it('an import circle fails import-x/no-cycle', async () => {
    const a = plant('apps/server/src/lint-plant/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    plant('apps/server/src/lint-plant/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    expect(await ruleIds(a)).toContain('import-x/no-cycle');
  });

  it('an app importing another app fails import-x/no-restricted-paths', async () => {
    const file = plant('apps/server/src/lint-plant/app.ts', "import { loadCabinetConfig } from '../../../cabinet/src/config.js';\nexport const c = loadCabinetConfig;\n");
    expect(await ruleIds(file)).toContain('import-x/no-restricted-paths');
  });

  it('a contract schema built outside packages/protocol fails no-restricted-imports', async () => {
    const file = plant('apps/server/src/lint-plant/schema.ts', "import { Type } from 'typebox';\nexport const S = Type.Object({});\n");
    expect(await ruleIds(file)).toContain('no-restricted-imports');
  });

  it("a feature importing another feature's internals fails, through its index.ts passes", async () => {
    const inside = plant('apps/web/src/features/lobby/lint-plant-inside.ts', "import { ChatPanel } from '../chat/components/chat-panel.js';\nexport const p = ChatPanel;\n");
    expect(await ruleIds(inside)).toContain('import-x/no-restricted-paths');
    const viaIndex = plant('apps/web/src/features/lobby/lint-plant-index.ts', "import * as chat from '../chat/index.js';\nexport const p = chat;\n");
    expect(await ruleIds(viaIndex)).not.toContain('import-x/no-restricted-paths');
  });
});
