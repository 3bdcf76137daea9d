export { AgentHub } from './agent-hub.js';
export type { CommandInput } from './agent-hub.js';
export { agentHubPlugin } from './plugin.js';
