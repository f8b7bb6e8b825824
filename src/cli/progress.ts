// A progress bar on a terminal; silence when output is piped or redirected.
import { SingleBar, Presets } from 'cli-progress';

export function progressReporter() {
  if (!process.stderr.isTTY) return { update: (_done: number, _total: number) => {}, pause: () => {}, stop: () => {} };
  const bar = new SingleBar({ format: '{bar} {percentage}% | {value}/{total} bytes', stream: process.stderr }, Presets.shades_classic);
  let started = false;
  return {
    update(done: number, total: number) {
      if (!started) {
        bar.start(total, 0);
        started = true;
      }
      bar.update(done);
    },
    /** Moves the bar out of the way of a message line. */
    pause() {
      if (started) process.stderr.write('\n');
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
