// A part of the service few requests need (the portal's files, the API reference's pages), built
// on its first request as a small Fastify instance of its own and handed those requests whole:
// its packages load then, not in every start.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A route handler that builds the instance once (again after a failure) and lets it answer. */
export function servedLazily(build: () => Promise<FastifyInstance>): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  let instance: Promise<FastifyInstance> | undefined;
  return async (request, reply) => {
    const built = await (instance ??= build().catch((error: unknown) => {
      instance = undefined; // tried again on the next request
      throw error;
    }));
    // What the service's own hooks set so far (security headers, CORS, the request id) goes with the answer.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    void reply.hijack();
    built.routing(request.raw, reply.raw);
  };
}
