/**
 * A message body encoded once for several calls. The Web API client turns each structured field of
 * a call (blocks, attachments, metadata) into JSON for the form it sends, and walks and encodes the
 * whole body once more for a debug line it builds even when nothing logs it. A body sent to several
 * messages (every card of one entity) is encoded here once instead; Slack receives the same form
 * fields, since the client passes a string field through as it is.
 */
const STRUCTURED = ['blocks', 'attachments', 'metadata'] as const;

export function encodedOnce<T extends object>(body: T): T {
  const encoded = { ...body } as Record<string, unknown>;
  for (const field of STRUCTURED) {
    const value = encoded[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      encoded[field] = JSON.stringify(value);
    }
  }
  // The client's types ask for arrays and objects where the form carries their JSON.
  return encoded as unknown as T;
}
