import { isDeepStrictEqual } from 'node:util';
import type { Agenda } from 'agenda';

interface Declared {
  interval: string;
  name: string;
  data: Record<string, unknown>;
}

/**
 * The periodic jobs plugins declare while they set up, saved when the host starts its
 * scheduler, and only those that are new or changed.
 *
 * - A schedule already stored as declared is left as it is. Saving it again set its next run
 *   one interval from now (Agenda's `skipImmediate`), so a host restarted more often than
 *   hourly never ran its hourly purge.
 * - Saving one computes its next run through Agenda's date library, whose first use in a
 *   process builds Intl's locale and zone data: with the seven built-in periodic jobs that
 *   was about 35 ms of every start, before the host answered (3 December,
 *   docs/performance.md). On a restart nothing changed and none of it runs.
 * - Nothing runs them before `agenda.start()` anyway; an `every` after the start is saved
 *   at once.
 */
export class PeriodicJobs {
  private pending: Declared[] | null = [];

  constructor(private readonly agenda: Agenda) {}

  async every(interval: string, name: string, data: Record<string, unknown>): Promise<void> {
    if (this.pending) this.pending.push({ interval, name, data });
    else await this.save({ interval, name, data });
  }

  /** Saves what the setups declared and the store does not hold yet; later calls save at once. */
  async start(): Promise<void> {
    const pending = this.pending ?? [];
    this.pending = null;
    if (pending.length === 0) return;
    const { jobs } = await this.agenda.queryJobs({ names: [...new Set(pending.map((job) => job.name))] });
    for (const declared of pending) {
      const stored = jobs.find((job) => job.name === declared.name && job.type === 'single');
      const unchanged =
        stored?.nextRunAt && stored.repeatInterval === declared.interval && isDeepStrictEqual(stored.data ?? {}, declared.data);
      if (!unchanged) await this.save(declared);
    }
  }

  private async save({ interval, name, data }: Declared): Promise<void> {
    // skipImmediate: a periodic job's first run is one interval after it is declared, not during boot.
    await this.agenda.every(interval, name, data, { skipImmediate: true });
  }
}
