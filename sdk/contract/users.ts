/** What a plugin may read of users: whether one exists, and its public view (never hashes). */
import { createServiceRef } from '../../core/kernel/service-ref.js';
import type { UserView } from '../../core/users/model.js';

export type { UserView } from '../../core/users/model.js';

export interface UsersApi {
  exists(userId: number): Promise<boolean>;
  /** 404 when there is none. */
  get(userId: number): Promise<UserView>;
}

/** `deps: { users: services.users }`: provided by the core domain plugin. */
export const usersService = createServiceRef<UsersApi, 'root'>({ id: 'users', scope: 'root' });
