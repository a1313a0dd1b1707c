import { PluginInstallError } from './install-error.js';

/**
 * FLOWHOST_PLUGIN_ALLOW: what the API may install. An entry is a package name
 * (`flowhost-plugin-hello`), a scope (`@acme/*`), or any text ending in `*` matched as a
 * prefix (`git+https://git.example.com/acme/*`); an empty list allows any package. The
 * package a tarball or git URL turned out to be is checked again once npm has read it.
 */
export function allowedBy(list: readonly string[] | undefined, candidate: string): boolean {
  if (!list || list.length === 0) return true;
  return list.some((entry) => (entry.endsWith('*') ? candidate.startsWith(entry.slice(0, -1)) : candidate === entry));
}

/** `@acme/x@^1.2` → `@acme/x`; `x@latest` → `x`; a URL or path as it is. */
export function registryName(spec: string): string | null {
  if (/^(\.|\/|[a-z+]+:)/i.test(spec) || /\.(tgz|tar\.gz)$/i.test(spec) || /^[^@/]+\/[^/]/.test(spec)) return null;
  const at = spec.indexOf('@', 1);
  return at === -1 ? spec : spec.slice(0, at);
}

/**
 * What an API caller may ask npm for: a registry name[@range], a git URL or an https
 * tarball URL the list allows; never a path or file: URL (the server's disk is not the caller's).
 */
export function checkApiSpec(list: readonly string[] | undefined, spec: string): void {
  if (/^(\.|\/|~|file:)/i.test(spec) || /^[a-z]:\\/i.test(spec))
    throw new PluginInstallError('plugin_not_allowed', `'${spec}' is a path on the server: send the tarball itself as the body instead`);
  const name = registryName(spec);
  if (!allowedBy(list, name ?? spec))
    throw new PluginInstallError(
      'plugin_not_allowed',
      `'${name ?? spec}' is not on the plugin allow-list (FLOWHOST_PLUGIN_ALLOW: ${list!.join(', ')})`,
    );
}

/** After npm: the package a tarball or git URL turned out to be must be allowed too. */
export function allowPackage(list: readonly string[] | undefined): ((name: string) => void) | undefined {
  if (!list || list.length === 0) return undefined;
  return (name) => {
    if (!allowedBy(list, name))
      throw new PluginInstallError(
        'plugin_not_allowed',
        `Package '${name}' is not on the plugin allow-list (FLOWHOST_PLUGIN_ALLOW: ${list.join(', ')})`,
      );
  };
}
