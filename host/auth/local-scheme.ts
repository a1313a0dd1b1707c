/**
 * The Authorization scheme of the CLI's local credential (host.json). Its own module so
 * the CLI names it without loading the authenticator and the users domain behind it.
 */
export const LOCAL_SCHEME = 'Flowhost-Local';
