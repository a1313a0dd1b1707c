/** What test/support/deny-network.ts writes on stderr for each refused attempt (its own module: importing the preload would patch the importer). */
export const DENY_NETWORK_MARKER = 'deny-network: refused';
