import type { Capability, Principal } from './principal.js';

/**
 * Who a run, a tool call or a provider call acts for: a snapshot of the user's
 * capabilities when the work was requested (a run started at 9:00 by an editor runs with
 * an editor's rights, whatever happens to the account by 9:05). Null when nobody asked
 * (a schedule, an inbound webhook).
 */
export interface ActingUser {
  readonly userId: number;
  readonly login: string;
  readonly capabilities: readonly string[];
  can(capability: Capability): boolean;
}

/** How an acting user is stored on a job. */
export interface ActingUserRecord extends Record<string, unknown> {
  user_id: number;
  login: string;
  capabilities: string[];
}

export function actingUserRecord(principal: Principal | null | undefined): ActingUserRecord | null {
  if (!principal) return null;
  return { user_id: principal.userId, login: principal.login, capabilities: [...principal.capabilities].sort() };
}

export function actingUser(record: ActingUserRecord | null | undefined): ActingUser | null {
  if (!record) return null;
  const capabilities = new Set(record.capabilities);
  return Object.freeze({
    userId: record.user_id,
    login: record.login,
    capabilities: [...capabilities],
    can: (capability: Capability) => capabilities.has(capability),
  });
}

/** The same snapshot from a live principal (a request being served). */
export function actingUserOf(principal: Principal | null | undefined): ActingUser | null {
  return actingUser(actingUserRecord(principal));
}
