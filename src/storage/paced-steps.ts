// Background work that follows the stored clicks (adding them to link counts and rollups) in
// steps: each step is sized to take about a target time, and while there is work the steps take
// at most a set share of the time, so a burst of clicks is stored at full speed and the sums catch
// up after it. A step that finds nothing, or fails, is tried again after a pause; a failed step
// must leave nothing half done (each is one transaction), so trying again loses nothing.

export interface Pace {
  /** Items the first step takes; later ones are sized so a step takes about targetMs. */
  firstStep: number;
  targetMs: number;
  maxStep: number;
  /**
   * Share of the time steps may take while there is work (0–1], or how to find it before each
   * step; 0 puts the step off (the cores are needed elsewhere) until `maxDeferMs` have passed
   * since the last one.
   */
  duty: number | (() => number);
  /** The longest steps are put off by a duty of 0; then one runs, paced as at MIN_DUTY. */
  maxDeferMs?: number;
  /** Pause after a step that found nothing to do, or failed. */
  idleMs: number;
}

export interface PacedSteps {
  /** No further step starts; resolves once the one under way (if any) has ended. */
  stop(): Promise<void>;
}

/** The share a step put off for too long runs at: enough to make progress, little enough to yield. */
const MIN_DUTY = 0.02;

/** Runs `step(limit)` (how many items it handled, at most `limit`) at `pace` until stopped. */
export function runPaced(step: (limit: number) => number | Promise<number>, pace: Pace): PacedSteps {
  let size = pace.firstStep;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const later = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = once();
    }, ms);
    timer.unref();
  };
  let lastStepAt = performance.now();
  const once = async () => {
    const duty = typeof pace.duty === 'number' ? pace.duty : pace.duty();
    const started = performance.now();
    if (duty <= 0 && started - lastStepAt < (pace.maxDeferMs ?? 0)) return later(pace.idleMs);
    lastStepAt = started;
    let handled: number;
    try {
      handled = await step(size);
    } catch {
      return later(pace.idleMs);
    }
    const took = performance.now() - started;
    if (handled === 0) return later(pace.idleMs);
    if (handled === size) size = Math.max(10, Math.min(pace.maxStep, Math.round((size * pace.targetMs) / Math.max(took, 1))));
    const share = Math.max(duty, MIN_DUTY);
    later((took * (1 - share)) / share);
  };
  running = once();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
