import type { Capability, Principal } from '../kernel/principal.js';
import { roleCapabilities, type Role } from './roles.js';

export class UserPrincipal implements Principal {
  readonly capabilities: ReadonlySet<string>;

  constructor(
    readonly userId: number,
    readonly login: string,
    readonly role: Role | 'system',
    extra: readonly string[],
    readonly via: Principal['via'],
    /** Which client acts (see Principal.client); the host's local CLI identity is `cli`. */
    readonly client?: string,
  ) {
    const base = role === 'system' ? roleCapabilities.administrator : roleCapabilities[role];
    this.capabilities = new Set([...base, ...extra]);
  }

  can(capability: Capability): boolean {
    // Administrators (and the host's local CLI identity) hold every capability, plugin-defined ones too.
    if (this.role === 'administrator' || this.role === 'system') return true;
    return this.capabilities.has(capability);
  }
}
