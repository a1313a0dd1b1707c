// Chat tools called directly, as a given user, with no model in between: the user
// snapshots a tool gets (what actingUserOf takes from a request), the call and its failure
// message; and the staff with posts of every status that the permission suites (chat's
// post tools, docsync) hold up against what wp/v2 answers the same users.
import * as assert from 'uvu/assert';
import type { TestHost } from '../../sdk/testing/index.js';
import type { ActingUser, CallContext } from '../../sdk/index.js';
import { chatTools, type ChatToolDefinition } from '../../sdk/chat/index.js';
import { createGuardedFetch } from '../../host/net/guarded-fetch.js';
import { roleCapabilities } from '../../core/users/roles.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tools answer arbitrary JSON

/** A user the test host created (`t.createUser`). */
export type Who = { login: string; password: string; userId: number };

/** A snapshot holding exactly these capabilities. */
export function actingAs(login: string, capabilities: string[], userId = 4242): ActingUser {
  return { userId, login, capabilities, can: (c) => capabilities.includes(c) };
}

/** The snapshot a tool gets for this user when they have the role's capabilities. */
export function snapshotOf(who: Who, role: keyof typeof roleCapabilities): ActingUser {
  return actingAs(who.login, [...roleCapabilities[role]], who.userId);
}

/** Runs a registered tool as `user`, with a guarded fetch that allows private addresses unless another is given. */
export async function runTool<T = Body>(
  t: TestHost,
  name: string,
  args: Record<string, unknown>,
  user: ActingUser | null,
  fetch = createGuardedFetch({ allowPrivate: true }),
): Promise<T> {
  const tool = t.host.registries.extensionPoint(chatTools).get(name) as ChatToolDefinition;
  assert.ok(tool, `no tool ${name}`);
  const ctx: CallContext = { user, log: t.host.log, clock: t.clock, fetch };
  return (await tool.run(args, ctx)) as T;
}

/** The message a tool call failed with (the test fails if it did not). */
export async function toolError(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return (error as Error).message;
  }
  assert.unreachable('the tool did not fail');
  return '';
}

/** An editor (eddie) and two authors (ann, bob), created in that order. */
export async function editorAndAuthors(t: TestHost): Promise<{ editor: Who; ann: Who; bob: Who }> {
  const editor = await t.createUser('eddie', 'editor');
  const ann = await t.createUser('ann', 'author');
  const bob = await t.createUser('bob', 'author');
  return { editor, ann, bob };
}

/**
 * Creates posts in a wp/v2-style collection (POST `path` in `namespace`), one after the
 * other in the order given, each by its author with the content `${title}: ${text}`;
 * returns their ids under the same names.
 */
export async function createPosts(
  t: TestHost,
  where: { namespace: string; path: string; text: string },
  posts: Record<string, [as: Who | 'admin', title: string, status: string]>,
): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const [name, [as, title, status]] of Object.entries(posts)) {
    const res = await t.request<Body>('POST', where.path, {
      namespace: where.namespace,
      as,
      body: { title, content: `${title}: ${where.text}`, status },
    });
    assert.is(res.status, 201, JSON.stringify(res.body));
    ids[name] = res.body.id as number;
  }
  return ids;
}
