/**
 * A separate process that approves one hand pay, for the kill -9 test (hand-pays.test.ts):
 * `node --import tsx hand-pay-approver.ts <databaseUrl> <handPayId> <auditKeyFile>`.
 */
import { createPool } from '../src/db/pool.js';
import { createLocalBus } from '../src/lib/bus.js';
import { loadProcessAuditKey } from '../src/modules/audit/audit-signing.js';
import { approveHandPay } from '../src/modules/hand-pays/hand-pay-approval.js';

const [databaseUrl, id, keyFile] = process.argv.slice(2);
loadProcessAuditKey({ auditKeyFile: keyFile! });
const db = createPool(databaseUrl!, 2);
await approveHandPay(
  { db, bus: createLocalBus(), paid: async () => {} },
  { id: 0, username: 'staff2', admin: false, actor: 'operator:staff2' },
  Number(id),
  'approved by a process killed mid-way',
);
await db.end();
