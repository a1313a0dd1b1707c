/** The host's authenticator: its login throttle set from the config, over the host's rate limiters. */
import type { UsersService } from '../../core/users/service.js';
import type { HostConfig } from '../config/schema.js';
import { Authenticator } from './authenticator.js';
import { LoginThrottle, type LimiterFactory } from './login-throttle.js';

export function hostAuthenticator(
  users: UsersService,
  config: HostConfig,
  rateLimiters: LimiterFactory,
  /** The local token of the running host (a CLI command on the same machine), null before the start. */
  localToken: () => string | null,
): Authenticator {
  const throttle = new LoginThrottle(
    {
      maxFailures: config.loginMaxFailures,
      maxFailuresPerIp: config.loginMaxFailuresPerIp,
      maxFailuresPerLogin: config.loginMaxFailuresPerLogin,
      windowSeconds: config.loginWindowSeconds,
      knownAddressSeconds: config.loginKnownAddressDays * 86_400,
    },
    rateLimiters,
  );
  return new Authenticator(users, throttle, localToken);
}
