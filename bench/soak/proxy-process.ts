// The TCP proxy of the outage tests (test/helpers/tcp-proxy.ts) in a process of its own, cut and
// restored over IPC. In the load generator's process every query of the servers would wait behind
// the load's own work on that event loop (measured: list reads' median 11 ms → 36 ms on two
// instances), so the figures would be the load generator's, not the service's.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTcpProxy, type TcpProxy } from '../../test/helpers/tcp-proxy.js';

type Command = 'cut' | 'restore' | 'close';

/** Parent side: a proxy to host:port running in a child process. */
export async function startProxyProcess(host: string, port: number): Promise<TcpProxy> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), [host, String(port)], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const reply = () =>
    new Promise<unknown>((resolve, reject) => {
      const onExit = () => reject(new Error('the proxy process exited'));
      child.once('exit', onExit);
      child.once('message', (message) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
  const listening = (await reply()) as { port: number };
  const send = async (command: Command) => {
    const answered = reply();
    child.send(command);
    await answered;
  };
  return {
    port: listening.port,
    cut: () => send('cut'),
    restore: () => send('restore'),
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        await send('close').catch(() => {});
        child.disconnect();
      }
      await exited;
    },
  };
}

/** Child side: started by fork() above with the target's host and port. */
async function serveProxy(host: string, port: number): Promise<void> {
  const proxy = await startTcpProxy(host, port);
  process.on('disconnect', () => process.exit(0)); // the soak ended, however it ended
  process.on('message', (command: Command) => {
    void proxy[command]().then(() => process.send!('done'));
  });
  process.send!({ port: proxy.port });
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  await serveProxy(process.argv[2]!, Number(process.argv[3]));
}
