import { API_PREFIX, NAMESPACE } from './api.js';
import type { WebhookTemplate, WebhookValueSource } from './model.js';

/**
 * The shell command that triggers a flow, as the webhook panel shows it: a few variables
 * (the token or secret, the body) then one curl. For HMAC the signature is computed with
 * openssl from the flow's own template, so the command is the template's documentation
 * and a way to test it; a template this cannot express (a regex extract, a parameter
 * source, {header:…}/{param:…} in the signed text) gets a placeholder and the description.
 */
export interface TriggerCommand {
  script: string;
  /** How the sender signs, in words (HMAC only). */
  signing?: string;
}

/** A shell word in single quotes: nothing in it is expanded. */
const sq = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
/** Text for inside double quotes, where only our $VARIABLES may expand. */
const dq = (text: string) => text.replace(/[\\"$`]/g, (c) => `\\${c}`);

const BODY = '{"hello":"world"}';

/** What senders post to: the origin the console is served from (a proxy's, behind one). */
export const triggerUrl = (flowId: number) => `${location.origin}${API_PREFIX}/${NAMESPACE}/trigger/${flowId}`;

export function bearerCommand(url: string, token: string | undefined): TriggerCommand {
  return {
    script: [
      `TOKEN=${sq(token ?? '<the token shown when it was made>')}`,
      `curl -X POST ${sq(url)} -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' --data-binary ${sq(BODY)}`,
    ].join('\n'),
  };
}

export function hmacCommand(url: string, template: WebhookTemplate | null | undefined, secret: string | undefined): TriggerCommand {
  const secretLine = `SECRET=${sq(secret ?? '<the secret shown when it was made>')}`;
  if (!template) {
    // A verifier plugin's mode (e.g. twilio): its signing is its own.
    return {
      script: [
        secretLine,
        `curl -X POST ${sq(url)} -H 'Content-Type: application/json' --data-binary ${sq(BODY)}  # plus the signature header the sender's service computes`,
      ].join('\n'),
    };
  }
  const signing = describe(template);
  const built = signedScript(url, template);
  if (built) return { script: [secretLine, ...built].join('\n'), signing };
  const header = template.signature_source.header ?? 'X-Signature';
  return {
    script: [
      secretLine,
      `curl -X POST ${sq(url)} -H 'Content-Type: application/json' -H ${sq(`${header}: <signature>`)} --data-binary ${sq(BODY)}`,
    ].join('\n'),
    signing,
  };
}

function describe(t: WebhookTemplate): string {
  const where = (s: WebhookValueSource) => (s.header ? `header ${s.header}` : `parameter ${s.param}`);
  const extract = t.signature_source.extract;
  const shape =
    !extract || extract.kind === 'raw'
      ? 'the value alone'
      : extract.kind === 'prefix'
        ? `after “${extract.key}”`
        : extract.kind === 'kv_pairs'
          ? `as ${extract.key}${extract.pair_separator ?? '='}… among “${extract.separator}”-separated pairs`
          : `matched by /${extract.key}/`;
  const key =
    t.secret_encoding && t.secret_encoding.encoding !== 'utf8'
      ? ` (the secret${t.secret_encoding.prefix ? ` without “${t.secret_encoding.prefix}”` : ''} decoded from ${t.secret_encoding.encoding})`
      : '';
  const time = t.timestamp_source
    ? `; {timestamp} (${t.timestamp_source.format}) is sent in ${where(t.timestamp_source)}${t.tolerance_seconds ? ` and must be within ${t.tolerance_seconds} s` : ''}`
    : '';
  const id = t.id_source ? `; {id} is sent in ${where(t.id_source)}` : '';
  return `HMAC-${t.algo.toUpperCase()} of “${t.signed_template}” keyed by the secret${key}, ${t.signature_source.encoding}-encoded, in ${where(t.signature_source)} (${shape})${time}${id}.`;
}

/** A value as a header carries it, around a shell expression ($TS, $SIG); null when not expressible. */
function wrap(extract: WebhookValueSource['extract'], expression: string): string | null {
  if (!extract || extract.kind === 'raw') return expression;
  if (extract.kind === 'prefix') return `${dq(extract.key ?? '')}${expression}`;
  if (extract.kind === 'kv_pairs') return `${dq(extract.key ?? '')}${dq(extract.pair_separator ?? '=')}${expression}`;
  return null;
}

function signedScript(url: string, t: WebhookTemplate): string[] | null {
  const sig = t.signature_source;
  const sources = [sig, t.timestamp_source, t.id_source].filter((s): s is WebhookValueSource => s !== undefined);
  if (sources.some((s) => !s.header)) return null;
  // The signed text with our variables; {header:…} and {param:…} would need the request's own values.
  let unsupported = false;
  const signed = t.signed_template
    .split(/(\{[^}]*\})/)
    .map((part) => {
      if (part === '{body}') return '$BODY';
      if (part === '{timestamp}') return '$TS';
      if (part === '{id}') return '$ID';
      if (part === '{url}') return dq(url);
      if (/^\{.*\}$/.test(part)) unsupported = true;
      return dq(part);
    })
    .join('');
  if (unsupported) return null;
  const lines = [`BODY=${sq(BODY)}`];
  if (t.timestamp_source)
    lines.push(
      `TS=${t.timestamp_source.format === 'iso8601' ? '$(date -u +%Y-%m-%dT%H:%M:%SZ)' : t.timestamp_source.format === 'unix_ms' ? '$(date +%s)000' : '$(date +%s)'}`,
    );
  if (t.id_source || t.signed_template.includes('{id}')) lines.push('ID="evt-$(date +%s)-$RANDOM"');
  const enc = t.secret_encoding;
  if (enc?.prefix) lines.push(`KEY="\${SECRET#${dq(enc.prefix)}}"`);
  const keyVar = enc?.prefix ? '$KEY' : '$SECRET';
  const keyArg =
    !enc || enc.encoding === 'utf8'
      ? `-hmac "${keyVar}"`
      : enc.encoding === 'hex'
        ? `-mac HMAC -macopt hexkey:"${keyVar}"`
        : `-mac HMAC -macopt hexkey:"$(printf '%s' "${keyVar}" | openssl base64 -d -A | od -An -vtx1 | tr -d ' \\n')"`;
  const digest = `printf '%s' "${signed}" | openssl dgst -${t.algo} ${keyArg} -binary`;
  lines.push(
    `SIG=$(${digest} | ${sig.encoding === 'hex' ? "od -An -vtx1 | tr -d ' \\n'" : sig.encoding === 'base64' ? 'openssl base64 -A' : "openssl base64 -A | tr '+/' '-_' | tr -d '='"})`,
  );
  // Headers by name: a timestamp in the signature's header (Stripe: t=…,v1=…) joins it.
  const headers = new Map<string, string[]>();
  const add = (source: WebhookValueSource | undefined, expression: string) => {
    if (!source?.header) return true;
    const value = wrap(source.extract, expression);
    if (value === null) return false;
    const key = source.header.toLowerCase();
    headers.set(key, [...(headers.get(key) ?? [source.header]), value]);
    return true;
  };
  if (!add(t.timestamp_source, '$TS') || !add(t.id_source, '$ID') || !add(sig, '$SIG')) return null;
  const separator = sig.extract?.kind === 'kv_pairs' ? (sig.extract.separator ?? ',') : ' ';
  const args = [...headers.values()].map(([name, ...values]) => `-H "${dq(name!)}: ${values.join(dq(separator))}"`);
  lines.push(`curl -X POST ${sq(url)} -H 'Content-Type: application/json' ${args.join(' ')} --data-binary "$BODY"`);
  return lines;
}
