/** The cabinet states are listed once: the agent's schema and the subsets follow the list. */
import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { AgentCommand, AgentMachineState } from './agent.js';
import {
  BUSY_CABINET_STATES,
  CABINET_STATES,
  CabinetState,
  FAULT_CABINET_STATES,
  PLAYABLE_CABINET_STATES,
  UNAVAILABLE_CABINET_STATES,
  isPlayableCabinetState,
  isUnavailableCabinetState,
} from './constants.js';

describe('cabinet states', () => {
  it('the agent schema accepts exactly the listed states', () => {
    expect(CABINET_STATES).toEqual(Object.values(CabinetState));
    for (const state of CABINET_STATES) expect(Value.Check(AgentMachineState, state), state).toBe(true);
    for (const other of ['spinning', 'IDLE', '', 1])
      expect(Value.Check(AgentMachineState, other)).toBe(false);
  });

  it('the subsets are made of listed states, and set_fault takes the fault states or none', () => {
    for (const subset of [
      PLAYABLE_CABINET_STATES,
      BUSY_CABINET_STATES,
      FAULT_CABINET_STATES,
      UNAVAILABLE_CABINET_STATES,
    ])
      for (const state of subset) expect(CABINET_STATES).toContain(state);
    expect(isPlayableCabinetState('in_bonus')).toBe(true);
    expect(isPlayableCabinetState('cashing_out')).toBe(false);
    expect(isUnavailableCabinetState('malfunction')).toBe(true);
    for (const fault of ['none', ...FAULT_CABINET_STATES])
      expect(Value.Check(AgentCommand, { commandId: 'c', type: 'set_fault', fault })).toBe(true);
    expect(Value.Check(AgentCommand, { commandId: 'c', type: 'set_fault', fault: 'offline' })).toBe(false);
  });
});
