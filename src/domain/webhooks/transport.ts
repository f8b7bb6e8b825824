// What the webhook queue needs from the network: send one signed request, say how it went. The
// implementation (src/outbound/webhook-transport.ts) decides where a request may go.

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookResponse {
  /** The receiver's HTTP status; absent when no answer came (refused, unreachable, timed out). */
  status?: number;
  /** Why it failed, in words the endpoint's owner reads in its delivery log; also with a status, when the answer did not end in time. */
  error?: string;
  durationMs: number;
}

export interface WebhookTransport {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
