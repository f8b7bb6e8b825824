// Small helpers shared by the HTTP tests: extra API keys, the error-body check, short-link codes.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { Scope } from '../../src/domain/access/scopes.js';
import { startHarness, type Harness } from './harness.js';
import { servicesFor } from './databases.js';

/**
 * A fresh affiliate key. Tests that send many requests use one with a high rate limit, so the
 * per-key limit of 60 requests per minute does not interfere with what they check.
 */
export async function newKey(h: Harness, affiliateId: string, options: { scopes?: Scope[]; rateLimit?: number } = {}): Promise<{ id: string; key: string }> {
  return servicesFor(h.service.database).access.createApiKey({ affiliateId, scopes: options.scopes, rateLimit: options.rateLimit });
}

const STATUS_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  429: 'TooManyRequests',
};

export interface ErrorBodyShape {
  statusCode: number;
  error: string;
  message: string;
  success: false;
  code: string;
}

/**
 * Asserts the response is an error with the body every error must carry:
 * { statusCode, error, message, success: false, code }. Returns the body.
 */
export function assertError(res: LightMyRequestResponse, status: number, code?: string | RegExp): ErrorBodyShape {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /application\/json/, `error body must be JSON: ${res.body}`);
  const body = res.json<ErrorBodyShape>();
  assert.equal(body.statusCode, status, res.body);
  if (STATUS_NAMES[status]) assert.equal(body.error, STATUS_NAMES[status], res.body);
  assert.equal(typeof body.message, 'string', res.body);
  assert.ok(body.message.length > 0, `message must not be empty: ${res.body}`);
  assert.equal(body.success, false, res.body);
  assert.equal(typeof body.code, 'string', res.body);
  if (typeof code === 'string') assert.equal(body.code, code, res.body);
  else if (code) assert.match(body.code, code, res.body);
  return body;
}

/** The code of a short URL based on PUBLIC_URL http://go.test. */
export function codeOf(shortUrl: string): string {
  const match = /^http:\/\/go\.test\/([0-9A-Za-z]+)$/.exec(shortUrl);
  assert.ok(match, `not a short URL of http://go.test: ${shortUrl}`);
  return match[1]!;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Query string from an object (arrays become repeated parameters). */
export function qs(params: Record<string, string | number | boolean | Array<string | number> | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) search.append(name, String(v));
    else search.append(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A started harness and high-limit keys for the three test affiliates. */
export async function startWithKeys(env: Record<string, string> = {}): Promise<{ h: Harness; aff1: string; aff2: string; aff3: string }> {
  const h = await startHarness(env);
  const key = async (affiliateId: string) => (await newKey(h, affiliateId, { rateLimit: 100_000 })).key;
  return { h, aff1: await key('aff-1'), aff2: await key('aff-2'), aff3: await key('aff-3') };
}
