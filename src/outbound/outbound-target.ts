// Where an outbound request may go, and nowhere else: https only, and never to the network's own
// machines (loopback, private, link-local and metadata addresses: every special-purpose range of
// src/lib/addresses.ts), unless the operator allows local targets (WEBHOOK_ALLOW_LOCAL_TARGETS,
// for tests and development). The host is resolved here, every address it resolves to is checked,
// and the connection is made to the address that was checked (a lookup hook on the request), so a
// DNS answer that changes between the check and the connection (rebinding) cannot lead inside. And
// every exchange has one deadline, from the name lookup to the last byte of the answer. Webhook
// deliveries and feed fetches both go through it.
import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { reservedAddress } from '../lib/addresses.js';

/** Resolves a host name to its addresses (tests inject one; the default asks the system resolver). */
export type Resolver = (hostname: string) => Promise<string[]>;

export interface TargetOptions {
  /** Allow http and addresses of the local machine and networks. */
  allowLocal: boolean;
  resolve?: Resolver;
}

const systemResolver: Resolver = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A URL that may not be reached. `message` is what the member who gave the URL is told: what is
 * wrong (not https, not resolved, not a public address), never which address a name resolves to
 * nor what kind of machine is there, which would map the network's own. `detail` says all of it,
 * for the log alone.
 */
export class RefusedTarget extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** The checked address to connect to for `url`: the host's first address, all of them checked. */
export async function checkedAddress(url: URL, options: TargetOptions): Promise<string> {
  const { allowLocal, resolve = systemResolver } = options;
  if (url.protocol !== 'https:' && !(allowLocal && url.protocol === 'http:')) {
    const only = `refused: ${url.protocol} URLs are not allowed, only https`;
    throw new RefusedTarget(only, only);
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) !== 0;
  const unresolved = `refused: ${host} could not be resolved`;
  const addresses = literal ? [host] : await resolve(host).catch((error: Error) => Promise.reject(new RefusedTarget(unresolved, `cannot resolve ${host}: ${error.message}`)));
  if (addresses.length === 0) throw new RefusedTarget(unresolved, `cannot resolve ${host}: no address`);
  if (!allowLocal) {
    for (const address of addresses) {
      const reason = reservedAddress(address);
      if (reason) throw new RefusedTarget(literal ? `refused: ${host} is not a public address` : `refused: the address of ${host} is not public`, `refused: ${host} resolves to ${address}, a ${reason} address`);
    }
  }
  return addresses[0]!;
}

/**
 * A request to `url` whose connection goes to `address` (checked above) whatever the request asks;
 * redirects are never followed (Node's client does not follow them).
 */
export function pinnedRequest(url: URL, address: string, options: RequestOptions, onResponse: (response: IncomingMessage) => void): ClientRequest {
  const family = isIP(address);
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return send(url, { ...options, lookup: pinned }, onResponse);
}

/** Something the deadline cuts off: the request until it is answered, then the answer's body. */
interface Destroyable {
  destroy(error?: Error): unknown;
}

/** What the exchange waits for when its deadline passes. */
export type Stage = 'answer' | 'body';

/**
 * One deadline for a whole outbound exchange: the name lookup, the connection, the answer and
 * its body together. Idle timeouts alone let a peer sending a byte a second hold the exchange (and
 * the worker running it) for as long as it likes; this cuts it off `ms` after the start however
 * steadily it sends. `reason` says, in words the target's owner reads, what was cut off.
 */
export class Deadline {
  private readonly timer: NodeJS.Timeout;
  private stage: Stage = 'answer';
  private current: Destroyable | undefined;
  private passed: Error | undefined;
  private readonly waiting = new Set<(error: Error) => void>();

  constructor(ms: number, reason: (stage: Stage) => string) {
    this.timer = setTimeout(() => {
      this.passed = new Error(reason(this.stage));
      for (const fail of this.waiting) fail(this.passed);
      this.current?.destroy(this.passed);
    }, ms);
  }

  /** The error the exchange was ended with; undefined while there is time left. */
  get error(): Error | undefined {
    return this.passed;
  }

  /** `step`'s result, or the deadline's error if it passes first (a name lookup has no socket to destroy). */
  within<T>(step: Promise<T>): Promise<T> {
    if (this.passed) return Promise.reject(this.passed);
    let fail!: (error: Error) => void;
    const passed = new Promise<never>((_resolve, reject) => this.waiting.add((fail = reject)));
    return Promise.race([step, passed]).finally(() => this.waiting.delete(fail));
  }

  /** What the exchange waits on now (the request for its answer, then the answer for its body): destroyed with the deadline's error once it passes. */
  holds(stream: Destroyable, stage: Stage): void {
    this.current = stream;
    this.stage = stage;
    if (this.passed) stream.destroy(this.passed);
  }

  /** The exchange is over: nothing is left to cut off. */
  clear(): void {
    clearTimeout(this.timer);
  }
}
