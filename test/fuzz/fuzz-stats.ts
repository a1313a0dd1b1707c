// Counts for the summary (requests, 5xx, crashes...) and the distinct failures seen, one
// example each (the shortest), grouped by method, route, status and kind.
import { preview } from './json-text.js';

export interface FailureExample {
  signature: string;
  route: string;
  input: string;
  status: number | 'none';
  problems: string[];
  body: string;
  seen: number;
}

/** The line run-fuzz.mjs reads. */
export const SUMMARY_PREFIX = 'FUZZ_SUMMARY ';

export class FuzzStats {
  requests = 0;
  serverErrors = 0;
  badBodies = 0;
  noAnswer = 0;
  adminRestored = 0;
  /** Properties that began by putting the fixtures back (the others found them unchanged). */
  refreshes = 0;
  readonly statuses = new Map<number, number>();
  /** Answers by status and error code, e.g. `404 rest_no_route`. */
  readonly codes = new Map<string, number>();
  /** Requests Node's HTTP parser refused before the host saw them (raw non-ASCII bytes...). */
  parserRejected = 0;
  readonly failures = new Map<string, FailureExample>();
  readonly routesCovered = new Set<string>();
  /** 2xx answers per route: a route that never succeeds was only fuzzed at its gates. */
  readonly successes = new Map<string, number>();

  constructor(readonly store: string) {}

  count(route: string, status: number | 'none', code?: string): void {
    this.requests += 1;
    const key = `${status}${code ? ` ${code}` : ''}`;
    this.codes.set(key, (this.codes.get(key) ?? 0) + 1);
    this.routesCovered.add(route);
    if (status === 'none') this.noAnswer += 1;
    else {
      this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
      if (status >= 500) this.serverErrors += 1;
      if (status >= 200 && status < 300) this.successes.set(route, (this.successes.get(route) ?? 0) + 1);
    }
  }

  fail(example: Omit<FailureExample, 'signature' | 'seen'>, method: string, code: string | undefined): FailureExample {
    const kind = example.problems
      .map((p) =>
        p
          .replace(/\d{3}/g, 'N')
          .replace(/\(.*\)/, '')
          .trim(),
      )
      .join('; ');
    const target =
      example.route.startsWith(`${method} `) || example.route.startsWith("(Node's") ? example.route : `${method} on ${example.route}`;
    const signature = `${target} → ${example.status}${code ? ` ${code}` : ''} | ${kind}`;
    if (!example.problems.some((p) => /^status 5|^no answer/.test(p))) this.badBodies += 1;
    const previous = this.failures.get(signature);
    const entry: FailureExample = { ...example, signature, seen: (previous?.seen ?? 0) + 1 };
    if (previous && previous.input.length <= entry.input.length) previous.seen = entry.seen;
    else this.failures.set(signature, entry);
    return this.failures.get(signature)!;
  }

  report(crashes: number, ms: number): string {
    const lines = [
      `\n[fuzz] ${this.store}: ${this.requests} requests in ${(ms / 1000).toFixed(1)} s, ${this.serverErrors} 5xx, ${crashes} crashes, ${this.noAnswer} without answer, ${this.badBodies} malformed answers, ${this.parserRejected} refused by Node's parser, ${this.failures.size} distinct failures; admin re-created ${this.adminRestored}x; fixtures put back before ${this.refreshes} properties`,
      `[fuzz] ${this.store}: answers ${[...this.codes.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
    ];
    const neverOk = [...this.routesCovered].filter((r) => !this.successes.has(r) && !r.startsWith('('));
    if (neverOk.length) lines.push(`[fuzz] ${this.store}: never answered 2xx: ${neverOk.join(', ')}`);
    for (const f of this.failures.values()) {
      lines.push(`  ✗ ${f.signature}  (${f.seen}x)`, `      input: ${f.input}`, `      answer: ${f.status} ${preview(f.body, 300)}`);
    }
    return lines.join('\n');
  }

  summaryLine(crashes: number, ms: number, seed: number): string {
    return (
      SUMMARY_PREFIX +
      JSON.stringify({
        store: this.store,
        seed,
        requests: this.requests,
        server_errors: this.serverErrors,
        crashes,
        no_answer: this.noAnswer,
        malformed: this.badBodies,
        parser_rejected: this.parserRejected,
        distinct_failures: this.failures.size,
        routes: this.routesCovered.size,
        ms,
        failures: [...this.failures.values()].map((f) => ({
          signature: f.signature,
          input: f.input,
          status: f.status,
          body: preview(f.body, 200),
          seen: f.seen,
        })),
      })
    );
  }
}
