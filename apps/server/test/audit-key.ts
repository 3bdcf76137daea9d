/** A signing key for the audit trail in tests that write audit rows (the server loads its own at start). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadAuditKey, useAuditKey } from '../src/modules/audit/audit-signing.js';

export function useTestAuditKey(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reel-audit-key-'));
  useAuditKey(loadAuditKey(path.join(dir, 'audit-signing-key.pem')));
}
