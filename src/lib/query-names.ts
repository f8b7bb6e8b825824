// A query parameter's name as a server reads it: percent-decoded ('+' a space) and lower-cased,
// since some servers read names case-insensitively. The redirect compares a visitor's parameter
// names this way, both to drop those it may not set and to find the sub-ids it keeps.

/** A parameter's name (`name=value`, or `name` alone) as a server reads it, lower-cased. */
export function parameterName(parameter: string): string {
  const equals = parameter.indexOf('=');
  const raw = equals === -1 ? parameter : parameter.slice(0, equals);
  return (raw.includes('%') || raw.includes('+') ? formDecoded(raw) : raw).toLowerCase();
}

/** application/x-www-form-urlencoded decoding (invalid UTF-8 becomes U+FFFD, as servers read it). */
function formDecoded(raw: string): string {
  for (const [name] of new URLSearchParams(raw)) return name;
  return '';
}
