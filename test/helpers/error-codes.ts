// Every error code the service can answer, read from its source: the helpers that make errors
// (invalid('code', …), conflict(…), tooMany(…), new DomainError(kind, 'code', …), new HttpError(status,
// 'code', …), errorBody(status, 'code', …), notFound(…, 'code')) and the schema validation codes. A code
// written another way is not found: write errors through these.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAKERS = [
  /\b(?:invalid|conflict|unacceptable|notYet|unavailable|forbidden|tooMany|tooManyRequests)\(\s*'([A-Za-z_]+)'/g,
  /new DomainError\(\s*'[a-z_]+',\s*'([A-Za-z_]+)'/g,
  /new HttpError\(\s*\d+,\s*'([A-Za-z_]+)'/g,
  /errorBody\(\s*\d+,\s*'([A-Za-z_]+)'/g,
  /\bnotFound\([^;]*?,\s*'([a-z_]+)'\)/gs,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each code with the files that answer it. */
export function errorCodesOfSource(root = 'src'): Map<string, string[]> {
  const codes = new Map<string, string[]>();
  const add = (code: string, file: string) => codes.set(code, [...new Set([...(codes.get(code) ?? []), file])]);
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    for (const maker of MAKERS) for (const match of text.matchAll(maker)) add(match[1]!, file);
    // notFound(message) without a code answers not_found; the schemas' refusals have a code per part of the request.
    if (/\bnotFound\(/.test(text)) add('not_found', file);
    const validation = /const VALIDATION_CODES[^=]*=\s*\{([^}]*)\}/.exec(text);
    if (validation) for (const match of validation[1]!.matchAll(/'([a-z_]+)'/g)) add(match[1]!, file);
  }
  return codes;
}
