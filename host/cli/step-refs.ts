/**
 * Naming a pipeline step on the command line without copying its id: by 1-based position,
 * by type when only one step has it, or by id (pipeline step id or flow step id).
 */
import { CliError } from './admin-client.js';
import { refuseSecretOnArgv, secretSettings } from './secret-input.js';

export interface StepInfo {
  pipeline_step_id: string;
  step_type: string;
  execution_order: number;
  label?: string;
}

export interface ResolvedStep extends StepInfo {
  /** 1-based. */
  position: number;
}

export function orderedSteps(steps: readonly StepInfo[]): ResolvedStep[] {
  return [...steps].sort((a, b) => a.execution_order - b.execution_order).map((s, i) => ({ ...s, position: i + 1 }));
}

const listing = (steps: readonly ResolvedStep[]) => (steps.length ? steps.map((s) => `${s.position} ${s.step_type}`).join(', ') : 'none');

export function resolveStep(ref: string, steps: readonly ResolvedStep[], pipelineId: number | string): ResolvedStep {
  const trimmed = ref.trim();
  if (/^\d+$/.test(trimmed)) {
    const position = Number(trimmed);
    const found = steps.find((s) => s.position === position);
    if (!found) throw new CliError(`No step at position ${position} in pipeline ${pipelineId} (its steps: ${listing(steps)})`);
    return found;
  }
  const byId = steps.find((s) => s.pipeline_step_id === trimmed || trimmed.startsWith(`${s.pipeline_step_id}_`));
  if (byId) return byId;
  const byType = steps.filter((s) => s.step_type === trimmed);
  if (byType.length === 1) return byType[0]!;
  if (byType.length > 1)
    throw new CliError(
      `Step '${trimmed}' is ambiguous: pipeline ${pipelineId} has ${byType.length} ${trimmed} steps (positions ${byType.map((s) => s.position).join(', ')}); name one by its position`,
    );
  throw new CliError(`No step '${trimmed}' in pipeline ${pipelineId}: name a step by position, type or id (its steps: ${listing(steps)})`);
}

/** A --set value: JSON when it parses (numbers, booleans, null, quoted strings, objects), else the text as is. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sets `a.b.c` in a nested object, creating objects on the way. */
export function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let at = target;
  keys.slice(0, -1).forEach((key) => {
    const next = at[key];
    if (!next || typeof next !== 'object' || Array.isArray(next)) at[key] = Object.create(null) as Record<string, unknown>;
    at = at[key] as Record<string, unknown>;
  });
  at[keys[keys.length - 1]!] = value;
}

const asList = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

export interface StepEdits {
  step: ResolvedStep;
  handler?: string;
  settings: Record<string, unknown>;
  /** Whether any --set named this step. */
  hasSettings: boolean;
  userMessage?: string;
}

/**
 * Groups --handler <step>=<slug>, --set <step>.<key>=<value> and --user-message <step>=<text>
 * by the step they name; every problem names the option and the step.
 */
export function collectEdits(
  argv: { handler?: unknown; set?: unknown; 'set-secret'?: unknown; 'user-message'?: unknown },
  steps: readonly ResolvedStep[],
  pipelineId: number | string,
): Map<string, StepEdits> {
  const edits = new Map<string, StepEdits>();
  const edit = (step: ResolvedStep) => {
    let e = edits.get(step.pipeline_step_id);
    if (!e) edits.set(step.pipeline_step_id, (e = { step, settings: {}, hasSettings: false }));
    return e;
  };
  const split = (option: string, raw: string, sep: string): [string, string] => {
    const at = raw.indexOf(sep);
    if (at <= 0)
      throw new CliError(
        `--${option} '${raw}': expected ${option === 'set' ? '<step>.<key>=<value>' : `<step>=<${option === 'handler' ? 'slug' : 'text'}>`}`,
      );
    return [raw.slice(0, at), raw.slice(at + 1)];
  };
  for (const raw of asList(argv.handler)) {
    const [ref, slug] = split('handler', raw, '=');
    if (!slug.trim()) throw new CliError(`--handler '${raw}': the handler slug is empty`);
    const e = edit(resolveStep(ref, steps, pipelineId));
    if (e.handler && e.handler !== slug.trim())
      throw new CliError(`--handler names two handlers for step ${e.step.position} (${e.handler}, ${slug.trim()})`);
    e.handler = slug.trim();
  }
  for (const raw of asList(argv.set)) {
    const eq = raw.indexOf('=');
    if (eq <= 0) throw new CliError(`--set '${raw}': expected <step>.<key>=<value>`);
    const target = raw.slice(0, eq);
    const dot = target.indexOf('.');
    if (dot <= 0 || dot === target.length - 1)
      throw new CliError(`--set '${raw}': expected <step>.<key>=<value> (e.g. --set 1.feed_url=https://example.com/feed.xml)`);
    const key = target.slice(dot + 1);
    if (key.split('.').some((k) => !k)) throw new CliError(`--set '${raw}': the key '${key}' has an empty part`);
    refuseSecretOnArgv(target);
    const e = edit(resolveStep(target.slice(0, dot), steps, pipelineId));
    setPath(e.settings, key, parseValue(raw.slice(eq + 1)));
    e.hasSettings = true;
  }
  for (const [target, value] of secretSettings(argv['set-secret'], '--set-secret 1.app_password')) {
    const dot = target.indexOf('.');
    if (
      dot <= 0 ||
      dot === target.length - 1 ||
      target
        .slice(dot + 1)
        .split('.')
        .some((k) => !k)
    )
      throw new CliError(`--set-secret '${target}': expected <step>.<key> (e.g. --set-secret 1.app_password, the value on standard input)`);
    const e = edit(resolveStep(target.slice(0, dot), steps, pipelineId));
    // Taken as given (never JSON-parsed): a secret is text.
    setPath(e.settings, target.slice(dot + 1), value);
    e.hasSettings = true;
  }
  for (const raw of asList(argv['user-message'])) {
    const [ref, textValue] = split('user-message', raw, '=');
    const e = edit(resolveStep(ref, steps, pipelineId));
    if (e.step.step_type !== 'ai')
      throw new CliError(`--user-message: step ${e.step.position} is a ${e.step.step_type} step; only ai steps take a user message`);
    e.userMessage = textValue;
  }
  return edits;
}

/** A plain object (no null prototype) for JSON bodies. */
export function plain(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
