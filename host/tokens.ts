import { createToken } from '../core/kernel/tokens.js';
import { Tokens as ServiceTokens } from '../core/kernel/service-tokens.js';
import type { UsersService } from '../core/users/service.js';

/** The service tokens plus host-only ones (not part of the plugin SDK). */
export const Tokens = {
  ...ServiceTokens,
  users: createToken<UsersService>('users'),
} as const;
