/** Checks made inside public routes: who may see what is not published, or create terms. */
import { ApiError, type Principal } from '../../sdk/index.js';

/** 401 for nobody, 403 for a user without the capability (the host's own codes). */
export function requireCapability(user: Principal | null, capability: string, what: string): void {
  if (!user) throw new ApiError('rest_forbidden', `Sorry, you must be logged in to ${what}.`, 401);
  if (!user.can(capability)) throw new ApiError('rest_forbidden', `Sorry, you are not allowed to ${what}.`, 403);
}
