/** Fails any server test during which the server sent a message its protocol schema refuses. */
import { afterEach, expect } from 'vitest';
import { protocolDrift } from './protocol-drift.js';

afterEach(() => {
  expect(protocolDrift.splice(0), 'messages that do not match packages/protocol/src/ws-server.ts').toEqual(
    [],
  );
});
