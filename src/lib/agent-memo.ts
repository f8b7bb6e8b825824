// Answers about a user agent (is it a bot, which device and browser) cost microseconds each, and
// traffic repeats a few agents: remembering them pays. Agents come from clients, so what is kept
// is bounded: at most MAX_AGENTS agents, each of ordinary length (a made-up longer one is judged
// every time), so the memory stays within 10,000 × 512 characters whatever clients send.

const MAX_AGENTS = 10_000;
const MAX_AGENT_LENGTH = 512;

/** `judge`, remembering its answers for the agents seen most recently (all forgotten when full). */
export function rememberPerAgent<T>(judge: (userAgent: string) => T): (userAgent: string) => T {
  const known = new Map<string, T>();
  return (userAgent) => {
    const remembered = known.get(userAgent);
    if (remembered !== undefined) return remembered;
    const answer = judge(userAgent);
    if (userAgent.length <= MAX_AGENT_LENGTH) {
      if (known.size >= MAX_AGENTS) known.clear();
      known.set(userAgent, answer);
    }
    return answer;
  };
}
