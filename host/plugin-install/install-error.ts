/** The codes an install, update, removal or switch refuses with (core/errors/catalogue.ts, 'plugins'). */
export type PluginInstallCode =
  | 'plugin_install_failed'
  | 'plugin_incompatible'
  | 'plugin_not_allowed'
  | 'plugin_not_installed'
  | 'plugin_already_installed'
  | 'plugin_required'
  | 'plugin_running'
  | 'plugin_install_busy'
  | 'plugin_install_unavailable';

/**
 * A refusal of the install machinery, with the catalogue's code: the CLI prints the message,
 * the API answers the code's status. `problems` lists each compatibility check that failed.
 */
export class PluginInstallError extends Error {
  constructor(
    readonly code: PluginInstallCode,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'PluginInstallError';
  }
}
