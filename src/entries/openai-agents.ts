// The `safecut/openai-agents` entry: the OpenAI Agents SDK's `Session` kept in a safecut session
// (compacted under safecut's laws when due, blocking or in the background). Its declarations name
// `@openai/agents` types: only a project that has it imports it.

export { type AgentsSessionOptions, SafecutAgentsSession } from "../session/openai-agents-session.ts";
