/** A tool's MCP answer as the JSON a model (and a step's record) reads. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { JsonValue } from '../../sdk/index.js';

/** What a model is given of one result at most; the rest is cut with a note. */
const TEXT_LIMIT = 20_000;

const cut = (text: string) => (text.length <= TEXT_LIMIT ? text : `${text.slice(0, TEXT_LIMIT)}… (${text.length} characters, cut)`);

/** Text parts joined; other parts named by kind (an image is no use to a text step); structured content kept. */
export function toolOutput(result: CallToolResult): { [key: string]: JsonValue } {
  const parts = Array.isArray(result.content) ? result.content : [];
  const text = parts
    .map((part) => {
      if (part.type === 'text') return part.text;
      if (part.type === 'resource' && 'text' in part.resource) return String(part.resource.text);
      if (part.type === 'resource_link') return `[resource ${part.uri}]`;
      return `[${part.type}]`;
    })
    .join('\n');
  const out: { [key: string]: JsonValue } = { text: cut(text) };
  if (result.structuredContent && typeof result.structuredContent === 'object') {
    const structured = JSON.stringify(result.structuredContent);
    out.structured = structured.length <= TEXT_LIMIT ? (JSON.parse(structured) as JsonValue) : cut(structured);
  }
  if (result.isError) out.is_error = true;
  return out;
}
