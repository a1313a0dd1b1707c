/** What plugins read of the host (services.hostInfo), from its config and the address it listens on. */
import type { HostInfo } from '../../core/kernel/plugin.js';
import type { HostConfig } from '../config/schema.js';
import { currentOrigin } from '../http/request-origin.js';
import { FLOWHOST_VERSION } from '../../core/kernel/version.js';

export function hostInfoOf(config: HostConfig, url: () => string): HostInfo {
  return {
    version: FLOWHOST_VERSION,
    apiPrefix: config.apiPrefix,
    coreNamespace: config.coreNamespace,
    // The configured public URL, else the origin of the request being answered, else the listening address.
    publicUrl: () => (config.publicUrl ?? currentOrigin() ?? url()).replace(/\/+$/, ''),
    allowsPrivateUrls: config.allowPrivateUrls,
    storesDebugLogs: config.logDebug === true || config.logLevel === 'debug' || config.logLevel === 'trace',
    stepRecordBytes: config.stepRecordBytes,
    runLeaseSeconds: config.runLeaseSeconds,
  };
}
