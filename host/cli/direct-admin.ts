import type { DocumentStore } from '../../core/store/port.js';
import { ApiError } from '../../core/errors.js';
import { systemClock } from '../../core/kernel/clock.js';
import { UsersRepository } from '../../core/users/repository.js';
import { UsersService } from '../../core/users/service.js';
import { CliError, type AdminClient } from './admin-client.js';

/** Straight on the store: only when this process holds it (no host is running on it). */
export async function directAdmin(store: DocumentStore): Promise<AdminClient> {
  const users = new UsersService(new UsersRepository(store), systemClock);
  await users.init();
  const wrap = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (error) {
      // The API's code kept, as a refusal over HTTP keeps it: `... (user_exists)`.
      if (error instanceof ApiError) throw new CliError(error.message, error.code, error.data);
      throw error;
    }
  };
  return {
    via: 'store',
    listUsers: () => wrap(() => users.list()),
    findUser: (login) =>
      wrap(async () => {
        const user = await users.findByLogin(login);
        if (!user) throw new CliError(`No user with login '${login}'`, 'user_not_found');
        return user;
      }),
    createUser: (input) =>
      wrap(async () => {
        const user = await users.create(input);
        const application_password = await users.createAppPassword(user.user_id, 'flowhost-cli');
        return { user, application_password };
      }),
    deleteUser: (id) => wrap(async () => void (await users.delete(id))),
    setPassword: (id, password) => wrap(() => users.setPassword(id, password)),
    endSessions: (id) => wrap(async () => users.sessions.endAll((await users.get(id)).user_id)),
    createAppPassword: (id, name) => wrap(() => users.createAppPassword(id, name)),
    listAppPasswords: (id) => wrap(() => users.listAppPasswords(id)),
    revokeAppPassword: (id, uuid) => wrap(async () => void (await users.revokeAppPassword(id, uuid))),
    close: () => store.close(),
  };
}
