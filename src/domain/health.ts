// Readiness: whether the stores the service depends on answer right now.
export interface HealthProbes {
  database: () => Promise<void>;
  /** Absent when the service runs without Redis. */
  redis?: () => Promise<void>;
}

export type Readiness = { ready: true } | { ready: false; down: 'database' | 'redis' };

export class HealthService {
  constructor(private readonly probes: HealthProbes) {}

  async readiness(): Promise<Readiness> {
    if (!(await answers(this.probes.database))) return { ready: false, down: 'database' };
    if (this.probes.redis && !(await answers(this.probes.redis))) return { ready: false, down: 'redis' };
    return { ready: true };
  }
}

async function answers(probe: () => Promise<void>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch {
    return false;
  }
}
