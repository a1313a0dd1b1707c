import type { AppPasswordView, UserView } from '../../core/users/model.js';
import type { CreatedAppPassword } from '../../core/users/service.js';

/**
 * What the CLI does to users, whichever way it reaches them: straight on the store when
 * no host holds the data directory, or through the running host's REST API.
 */
export interface AdminClient {
  readonly via: 'store' | 'host';
  listUsers(): Promise<UserView[]>;
  findUser(login: string): Promise<UserView>;
  createUser(input: {
    login: string;
    role: string;
    password?: string;
    capabilities?: string[];
  }): Promise<{ user: UserView; application_password: CreatedAppPassword }>;
  deleteUser(userId: number): Promise<void>;
  setPassword(userId: number, password: string): Promise<void>;
  /** Ends every cookie session of the user; answers how many ended. */
  endSessions(userId: number): Promise<number>;
  createAppPassword(userId: number, name: string): Promise<CreatedAppPassword>;
  listAppPasswords(userId: number): Promise<AppPasswordView[]>;
  revokeAppPassword(userId: number, uuid: string): Promise<void>;
  close(): Promise<void>;
}

export class CliError extends Error {
  constructor(
    message: string,
    /** The API's error code and data, when the error is an API answer. */
    readonly code?: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
