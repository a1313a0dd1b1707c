/** What a plugin may read of users: whether one exists, and its public view (never hashes). */
import { createServiceRef } from '../kernel/service-ref.js';
import type { UserView } from '../users/model.js';

export type { UserView } from '../users/model.js';

export interface UsersApi {
  exists(userId: number): Promise<boolean>;
  /** 404 when there is none. */
  get(userId: number): Promise<UserView>;
}

/** `deps: { users: services.users }`: provided by the core domain plugin. */
export const usersService = createServiceRef<UsersApi, 'root'>({ id: 'users', scope: 'root' });
