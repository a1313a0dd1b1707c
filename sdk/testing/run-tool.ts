import { parameterValidators } from '../kernel/validator.js';
import { assertValid } from './assert-valid.js';
import { silentLogger, type Logger } from '../kernel/logger.js';
import type { Clock } from '../kernel/clock.js';
import type { CallContext, ToolDefinition } from '../kernel/contributions.js';
import type { ActingUser } from '../kernel/acting-user.js';
import { createGuardedFetch } from '../../host/net/guarded-fetch.js';
import { FakeClock } from './fake-clock.js';

export interface RunToolOptions {
  /** Who calls the tool (default: nobody); a tool must do no more than this user may. */
  user?: ActingUser | null;
  clock?: Clock;
  logger?: Logger;
  /** Loopback and private addresses are allowed by default (tests talk to fake servers). */
  allowPrivateUrls?: boolean;
}

/** What one call gave: the tool's result, and whether these arguments make it destructive. */
export interface ToolRun {
  result: unknown;
  /** As chat decides before running it: true means chat would ask the user to confirm first. */
  destructive: boolean;
  /** The arguments `run` received: validated, with the schema's defaults filled in. */
  args: Record<string, unknown>;
}

// Compiled once per tool definition, with defaults applied, as chat and analytics do.
const validatorOf = parameterValidators<ToolDefinition>();

/**
 * Calls one chat or analytics tool as the host would, without a host: the arguments are
 * checked against `parameters` (defaults filled in; a refusal throws naming each problem,
 * the text a model would get back), then `destructive` is read and `run` called with a
 * context of the user, a guarded fetch, a clock and a logger.
 *
 *   const { result } = await runTool(moonPhase, { date: '2026-12-04' });
 */
export async function runTool(tool: ToolDefinition, args: Record<string, unknown>, options: RunToolOptions = {}): Promise<ToolRun> {
  const values = structuredClone(args);
  assertValid(validatorOf(tool), values, `runTool '${tool.name}': invalid arguments`);
  const ctx: CallContext = {
    user: options.user ?? null,
    log: options.logger ?? silentLogger,
    clock: options.clock ?? new FakeClock(Date.now()),
    fetch: createGuardedFetch({ allowPrivate: options.allowPrivateUrls ?? true, userAgent: 'Flowhost-test' }),
  };
  const destructive = typeof tool.destructive === 'function' ? tool.destructive(values) : tool.destructive === true;
  return { result: await tool.run(values, ctx), destructive, args: values };
}
