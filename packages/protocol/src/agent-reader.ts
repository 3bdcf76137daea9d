/**
 * Reading the agent channel: one compiled validator per event, so each side (the server's agent hub,
 * the cabinet's agent client) takes a message only when it is exactly what agent-schemas.ts says.
 * A refusal is a value with a one-line reason, never a throw: the caller logs it and drops the
 * message, and nothing malformed reaches the code that acts on the channel.
 */
import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { AgentClientSchemas, AgentServerSchemas } from './agent-schemas.js';
import type { AgentEnvelope } from './agent.js';

type MessageOf<S extends Record<string, TSchema>> = { [E in keyof S & string]: AgentEnvelope<E, Static<S[E]>> }[keyof S & string];

export type AgentRead<M> = { ok: true; message: M } | { ok: false; reason: string };

/** Longest reason text: a refusal names the event and the first field that is wrong, not the message. */
const MAX_REASON_CHARS = 200;

function agentReader<S extends Record<string, TSchema>>(schemas: S) {
  // Compiled on first use: a process that imports the contract without reading the channel pays nothing.
  let validators: Map<string, ReturnType<typeof Compile<TSchema>>> | undefined;
  const refuse = (reason: string): { ok: false; reason: string } => ({ ok: false, reason: reason.slice(0, MAX_REASON_CHARS) });
  return (raw: string): AgentRead<MessageOf<S>> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      return refuse('bad_json');
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return refuse('not an { event, data } object');
    const { event, data } = parsed as { event?: unknown; data?: unknown };
    validators ??= new Map(Object.entries(schemas).map(([name, schema]) => [name, Compile(schema)]));
    const validator = typeof event === 'string' ? validators.get(event) : undefined;
    if (!validator) return refuse(`unknown event ${JSON.stringify(event)}`);
    if (!validator.Check(data)) {
      const [first] = validator.Errors(data);
      return refuse(`${String(event)}: data${first?.instancePath ?? ''} ${first?.message ?? 'is not valid'}`);
    }
    return { ok: true, message: { event, data } as MessageOf<S> };
  };
}

/** The server reads what cabinets send. */
export const readAgentClientMessage = agentReader(AgentClientSchemas);
/** The cabinet reads what the server sends. */
export const readAgentServerMessage = agentReader(AgentServerSchemas);
