import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { writePrivateFile } from '../runtime/data-dir-files.js';

/**
 * `<dataDir>/plugins/`: an npm project of its own (package.json, package-lock.json,
 * node_modules) holding the plugins installed at run time, and installed.json, the record
 * of what was installed from which spec and whether it is enabled. On the embedded store the
 * record is the truth; on MongoDB the store keeps a copy every host compares at start.
 */
export const PLUGINS_FOLDER = 'plugins';
export const INSTALLED_FILE = 'installed.json';

export interface InstalledPlugin {
  /** The plugin's id (its definition's). */
  id: string;
  /** The npm package it came in. */
  package: string;
  /** What was asked for: a name[@range], a tarball path or URL, a git URL. */
  spec: string;
  version: string;
  enabled: boolean;
  installed_at: string;
  /** Its `dependsOn` (ids, with ranges): another installed plugin it needs cannot be disabled or removed under it. */
  depends_on?: string[];
}

export interface InstalledRecord {
  plugins: InstalledPlugin[];
}

export function pluginsFolder(dataDir: string): string {
  return join(resolve(dataDir), PLUGINS_FOLDER);
}

/** The record, empty when nothing was ever installed. */
export function readInstalled(dataDir: string): InstalledRecord {
  try {
    const parsed = JSON.parse(readFileSync(join(pluginsFolder(dataDir), INSTALLED_FILE), 'utf8')) as InstalledRecord;
    return Array.isArray(parsed.plugins) ? parsed : { plugins: [] };
  } catch (error) {
    // No folder, or no data directory yet (ENOTDIR: a file where it would be, which the
    // start then refuses with its own words): nothing is installed.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { plugins: [] };
    throw new Error(`${join(pluginsFolder(dataDir), INSTALLED_FILE)} cannot be read: ${(error as Error).message}`);
  }
}

export function writeInstalled(dataDir: string, record: InstalledRecord): void {
  const sorted = { plugins: [...record.plugins].sort((a, b) => a.id.localeCompare(b.id)) };
  writePrivateFile(join(pluginsFolder(dataDir), INSTALLED_FILE), `${JSON.stringify(sorted, null, 2)}\n`, 0o644);
}

/** Creates the folder as a private npm project the first time a plugin is installed. */
export function ensurePluginsFolder(dataDir: string): string {
  const folder = pluginsFolder(dataDir);
  mkdirSync(folder, { recursive: true });
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) {
    const project = {
      name: 'flowhost-installed-plugins',
      private: true,
      description: 'Plugins installed with `flowhost plugins install`; edit through that command, not by hand.',
      dependencies: {},
    };
    writeFileSync(manifest, `${JSON.stringify(project, null, 2)}\n`);
  }
  return folder;
}

/** The folder's npm dependencies (package name to spec), as package.json lists them. */
export function folderDependencies(folder: string): Record<string, string> {
  try {
    const parsed = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    return parsed.dependencies ?? {};
  } catch {
    return {};
  }
}

/** The files that say what the folder holds: kept before a change, put back when it is refused. */
const KEPT = ['package.json', 'package-lock.json', INSTALLED_FILE];

export type FolderSnapshot = Record<string, Buffer | null>;

export function snapshotFolder(folder: string): FolderSnapshot {
  const snapshot: FolderSnapshot = {};
  for (const name of KEPT) {
    const path = join(folder, name);
    snapshot[name] = existsSync(path) ? readFileSync(path) : null;
  }
  return snapshot;
}

export function restoreSnapshot(folder: string, snapshot: FolderSnapshot): void {
  for (const [name, content] of Object.entries(snapshot)) {
    const path = join(folder, name);
    if (content === null) rmSync(path, { force: true });
    else writeFileSync(path, content);
  }
}

/** The module a package's name resolves to from the plugins folder (the host imports that). */
export function packageEntry(folder: string, name: string): string {
  return createRequire(join(folder, 'package.json')).resolve(name);
}
