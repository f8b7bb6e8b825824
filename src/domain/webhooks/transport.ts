// What the webhook and postback queues need from the network: send one request (a signed POST, a
// postback's GET), say how it went. The implementation (src/outbound/webhook-transport.ts) decides
// where a request may go.

export interface WebhookRequest {
  /** POST (with `body`) unless said otherwise. */
  method?: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface WebhookResponse {
  /** The receiver's HTTP status; absent when no answer came (refused, unreachable, timed out). */
  status?: number;
  /** Why it failed, in words the endpoint's owner reads in its delivery log; also with a status, when the answer did not end in time. */
  error?: string;
  /**
   * Why no whole answer came, as a code: refused (the URL may not be requested: not https, not
   * resolved, not a public address), timeout (no whole answer within the deadline), unreachable
   * (the connection failed). Absent when an answer came whole, whatever its status.
   */
  failure?: 'refused' | 'timeout' | 'unreachable';
  durationMs: number;
  /** The beginning of the receiver's answer (ANSWER_KEPT_BYTES at most), as text: what a tracker said. */
  answer?: string;
}

export interface WebhookTransport {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
