// The ceiling of any Node service on this machine: a bare node:http server answering a fixed
// 302 (for redirects) and a fixed small JSON body (for API scenarios). /busy answers the same JSON
// after 1 ms of CPU work: what queueing alone does to the latency of a request that costs as much
// as a list page, at the benchmark's concurrency. Usage: node bare-server.mjs PORT
import { createServer } from 'node:http';

const json = JSON.stringify({ data: [{ id: '00000000-0000-4000-8000-000000000000', name: 'Bare' }], pagination: { total: 1, page: 1, limit: 20, totalPages: 1 } });

createServer((req, res) => {
  if (req.url.startsWith('/busy')) {
    const until = performance.now() + 1;
    while (performance.now() < until);
  }
  if (req.url.startsWith('/json') || req.url.startsWith('/busy')) {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  } else {
    res.writeHead(302, { location: 'https://www.example.com/landing?clickId=0123456789abcdef0123456789abcdef', 'content-length': 0 });
    res.end();
  }
}).listen(Number(process.argv[2]), '127.0.0.1');
