/**
 * What staff hold a machine with: an emergency stop the cabinet reports holding refuses play and
 * money commands here first, with the staff's reason, before anything is written or sent.
 */
import { Code } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';
import type { CabinetPort } from './types.js';

export function refuseWhileStopped(cabinets: Pick<CabinetPort, 'get'>, machineId: number): void {
  const reason = cabinets.get(machineId)?.emergencyStop;
  if (reason) throw new AppError(Code.MachineStopped, 409, { reason });
}
