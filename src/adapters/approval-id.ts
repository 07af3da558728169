// The engine ids standing for approvals, shared by the adapters whose formats have them (AI SDK
// tool approvals, Responses MCP approvals). Their pairing checks name the format's items with
// the model's one rule (model/tool-pairing.ts).

/**
 * The engine tool call id standing for an approval request (AI SDK tool approvals, Responses
 * MCP approvals): its answer is a tool result with the same id, so the kernel's pairing keeps
 * a request and its answer together as it does a call and its result.
 */
export function approvalCallId(approvalId: string): string {
  return `approval:${approvalId}`;
}
