/**
 * `flowhost mcp-servers list|add|remove|tools`: the registered MCP servers from the command
 * line. A token is read from standard input only (`--token-stdin`), never from an argument
 * another user could see in the process list.
 */
import { readFileSync } from 'node:fs';
import { defineCliNoun } from '../../sdk/index.js';

type Row = Record<string, unknown>;
const BASE = '/automation/v1/mcp-servers';
const at = (name: unknown) => `${BASE}/${encodeURIComponent(String(name))}`;

/** Standard input to its end, without the line end a pipe or an editor adds. */
function readStdin(): string {
  return readFileSync(0, 'utf8').replace(/\r?\n$/, '');
}

function line(server: Row): string {
  const auth = server.auth as Row;
  const tools = (server.allowed_tools as string[]).join(', ') || 'no tools allowed';
  return `${String(server.name).padEnd(16)} ${String(server.url)}  auth: ${String(auth.type)}${server.chat ? '  chat' : ''}  tools: ${tools}`;
}

/** The auth the options ask for; the secret from standard input. */
async function authOf(args: Record<string, unknown>): Promise<Row | undefined> {
  if (!args['token-stdin']) {
    if (args.header) throw new Error('--header needs its value on standard input: add --token-stdin');
    return undefined;
  }
  const secret = readStdin();
  if (!secret) throw new Error('standard input was empty: pipe the token, e.g. printf %s "$TOKEN" | flowhost mcp-servers add ...');
  return args.header ? { type: 'header', header: String(args.header), value: secret } : { type: 'bearer', token: secret };
}

export const mcpServersNoun = defineCliNoun({
  noun: 'mcp-servers',
  describe: 'External MCP servers whose tools the ai step and chat may use (the mcp-client plugin)',
  commands: [
    {
      command: 'list',
      describe: 'The registered MCP servers (secrets masked)',
      async run(_args, ctx) {
        const res = await ctx.call<{ data: Row[] }>('GET', BASE);
        ctx.print(res.data, res.data.length ? res.data.map(line).join('\n') : 'No MCP servers are registered.');
      },
    },
    {
      command: 'add <name> <url>',
      describe: 'Registers an MCP server (Streamable HTTP); the token or header value from standard input',
      options: {
        allow: { type: 'string', describe: 'The tool names that may be used, comma-separated (search,fetch)' },
        'token-stdin': { type: 'boolean', describe: 'Read the bearer token (or the --header value) from standard input' },
        header: { type: 'string', describe: 'Send the secret in this header instead of Authorization: Bearer' },
        chat: { type: 'boolean', describe: 'The chat assistant may use the allowed tools too' },
        'timeout-ms': { type: 'number', describe: 'Time limit of each request (default 30000)' },
      },
      async run(args, ctx) {
        const auth = await authOf(args);
        const body: Row = {
          name: String(args.name),
          url: String(args.url),
          allowed_tools: String(args.allow ?? '')
            .split(',')
            .map((t) => t.trim())
            .filter(Boolean),
          ...(auth ? { auth } : {}),
          ...(args.chat !== undefined ? { chat: Boolean(args.chat) } : {}),
          ...(args['timeout-ms'] !== undefined ? { timeout_ms: Number(args['timeout-ms']) } : {}),
        };
        const res = await ctx.call<{ data: Row }>('POST', BASE, { body });
        ctx.print(res.data, `Registered ${line(res.data)}`);
      },
    },
    {
      command: 'remove <name>',
      describe: 'Removes an MCP server (asks first; --yes to skip)',
      destructive: true,
      async run(args, ctx) {
        await ctx.call('GET', at(args.name));
        await ctx.confirm(`Remove MCP server ${String(args.name)}`);
        const res = await ctx.call<{ data: Row }>('DELETE', at(args.name));
        ctx.print(res.data, `Removed MCP server ${String(res.data.name)}`);
      },
    },
    {
      command: 'tools <name>',
      describe: 'The tools the server lists now, and which the allow-list lets be used',
      async run(args, ctx) {
        const res = await ctx.call<{ data: { server: string; tools: Row[] } }>('GET', `${at(args.name)}/tools`);
        const text = res.data.tools.length
          ? res.data.tools.map((t) => `${t.allowed ? 'allowed ' : '        '} ${String(t.name)}  ${String(t.description ?? '')}`).join('\n')
          : `${res.data.server} lists no tools.`;
        ctx.print(res.data, text);
      },
    },
  ],
});
