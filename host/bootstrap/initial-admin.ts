import { join } from 'node:path';
import type { Logger } from '../../core/kernel/logger.js';
import type { UsersService } from '../../core/users/service.js';
import { INITIAL_PASSWORD_FILE, writePrivateFile } from '../runtime/data-dir-files.js';

export interface IssuedAdminPassword {
  login: string;
  password: string;
  /** Where it was written (null for an in-memory host). */
  file: string | null;
}

/**
 * Makes sure someone can administer the host. On the first start (no users) it creates
 * `admin`; whenever no administrator has any credential — first start, or a crash
 * between creating the user and writing the file — it issues an application password
 * for the first administrator and writes it once to <data dir>/initial-admin-password
 * (0600). Another host winning the creation race (shared MongoDB) is fine.
 */
export async function ensureAdminAccess(users: UsersService, dataDir: string | null, log: Logger): Promise<IssuedAdminPassword | null> {
  if ((await users.administrators()).length === 0) {
    try {
      await users.create({ login: 'admin', role: 'administrator' });
    } catch (error) {
      if ((error as { code?: string }).code !== 'user_exists') throw error;
    }
  }
  const admins = await users.administrators();
  for (const admin of admins) if (await users.hasCredentials(admin.user_id)) return null;
  const admin = admins[0];
  if (!admin) return null;
  const created = await users.createAppPassword(admin.user_id, 'initial');
  if (!dataDir) return { login: admin.login, password: created.password, file: null };
  const file = join(dataDir, INITIAL_PASSWORD_FILE);
  try {
    writePrivateFile(file, `${created.password}\n`);
  } catch (error) {
    // A password nobody can read is useless: revoke it so the next start issues another.
    await users.revokeAppPassword(admin.user_id, created.uuid).catch(() => undefined);
    throw error;
  }
  log.info(
    { file, login: admin.login },
    `Administrator '${admin.login}' has an application password in ${file} (written once; delete the file after reading it)`,
  );
  return { login: admin.login, password: created.password, file };
}
