// Run settings for the fuzz suites, from the environment (test/fuzz/run-fuzz.mjs sets them
// from its --runs / --seed / --keep-going flags):
//
//   FUZZ_RUNS        requests per store for the whole route suite, shared
//                    out over the properties (one per route, plus the transport ones);
//                    default 2000 in npm test, 4000 in npm run fuzz (a fresh seed each run:
//                    npm test keeps every route fuzzed on every change, npm run fuzz goes deeper)
//   FUZZ_SEED        fast-check seed (default: a fresh one, printed at start)
//   FUZZ_KEEP_GOING  1: record every failing input and go on (the suite still fails at
//                    the end); default: stop each property at its first failure and shrink
//   FUZZ_ONLY        run only the properties whose name contains this text (a route such
//                    as `POST /api/automation/v1/flows`, or `odd methods`)
//   FUZZ_PATH        with FUZZ_ONLY naming one property: replay the counterexample path
//                    fast-check printed (`{ seed, path }`)

/**
 * The route fuzz's budget inside npm test. At 4000 the two stores' route fuzz took about 80 s
 * of the suite's CPU (a sixth of it) on the 2-core machine; npm run fuzz (run-fuzz.mjs) keeps 4000.
 */
export const NPM_TEST_RUNS = 2000;

export interface FuzzConfig {
  totalRuns: number;
  seed: number;
  seedWasGiven: boolean;
  keepGoing: boolean;
  only?: string;
  path?: string;
}

function intFromEnv(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got '${raw}'`);
  return value;
}

export function fuzzConfig(): FuzzConfig {
  const runs = intFromEnv('FUZZ_RUNS');
  const seed = intFromEnv('FUZZ_SEED');
  return {
    totalRuns: Math.max(1, runs ?? NPM_TEST_RUNS),
    // fast-check seeds are 32-bit integers.
    seed: seed ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0,
    seedWasGiven: seed !== undefined,
    keepGoing: process.env.FUZZ_KEEP_GOING === '1',
    only: process.env.FUZZ_ONLY || undefined,
    path: process.env.FUZZ_PATH || undefined,
  };
}

/** How to rerun exactly this input stream. */
export function reproduceHint(config: FuzzConfig): string {
  return `reproduce (one property: add FUZZ_ONLY='<test name>' FUZZ_PATH='<path above>'): FUZZ_SEED=${config.seed} FUZZ_RUNS=${config.totalRuns} npm run fuzz   (or: npm run build && FUZZ_SEED=${config.seed} FUZZ_RUNS=${config.totalRuns} node --enable-source-maps dist/test/fuzz/routes.fuzz.test.js)`;
}
