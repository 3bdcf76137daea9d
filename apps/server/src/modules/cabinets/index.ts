export { AgentHub, AgentCommandError, DEFAULT_COMMAND_TIMEOUT_MS } from './agent-hub.js';
export type {
  AgentHubOptions,
  AgentHubEvents,
  AgentSocket,
  CommandInput,
  ConnectedMachine,
  VerifyMachineKey,
} from './agent-hub.js';
export { agentHubPlugin, type AgentHubPluginOptions } from './plugin.js';
