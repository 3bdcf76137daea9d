/** The picture a cabinet streams: its screen, or the camera on the cabinet (`set_view`). */
import { Code, type CommandResult, type VideoType } from '@reel/protocol';
import { AppError } from '../../lib/errors.js';
import { COMMAND_TIMEOUT_MS, type CabinetPort } from './types.js';

/** Tells the cabinet which picture to stream (also to put the screen back when a session ends). */
export async function showView(cabinets: Pick<CabinetPort, 'sendCommand'>, machineId: number, view: VideoType) {
  let result: CommandResult;
  try {
    result = await cabinets.sendCommand(machineId, { type: 'set_view', view }, { timeoutMs: COMMAND_TIMEOUT_MS });
  } catch {
    throw new AppError(Code.MachineNoAnswer, 503);
  }
  if (result.outcome !== 'ok') throw new AppError(Code.CameraUnavailable, 403);
}
