/** The chat routes' request and response schemas (docs/chat.md shows them as examples). */
import { Type } from '../../sdk/index.js';
import { errorBody, successBody, type JsonSchema } from '../../sdk/index.js';

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const free: JsonSchema = { type: 'object', additionalProperties: true };

export const message: JsonSchema = {
  type: 'object',
  required: ['role', 'content'],
  properties: { role: str, content: str, tool_calls: { type: 'array', items: free }, metadata: free },
  additionalProperties: false,
};
export const conversation: JsonSchema = { type: 'array', items: message };
/** The spec's tool call ({id, type, function: {name, arguments}}) and what came of it. */
const toolCall: JsonSchema = {
  type: 'object',
  required: ['id', 'type', 'function', 'turn'],
  properties: {
    id: str,
    type: { const: 'function' },
    function: {
      type: 'object',
      required: ['name', 'arguments'],
      properties: { name: str, arguments: { type: 'string', description: 'The arguments as encoded JSON' } },
      additionalProperties: false,
    },
    turn: int,
    result: {},
    error: str,
    skipped: bool,
    awaiting_confirmation: bool,
    confirmed: bool,
  },
  additionalProperties: false,
};
/** A destructive call held for the user's confirmation, or null. */
const pendingConfirmation: JsonSchema = {
  type: ['object', 'null'],
  required: ['id', 'type', 'function', 'turn'],
  properties: {
    id: str,
    type: { const: 'function' },
    function: { type: 'object', required: ['name', 'arguments'], properties: { name: str, arguments: str }, additionalProperties: false },
    turn: int,
  },
  additionalProperties: false,
};
const toolCalls: JsonSchema = { type: 'array', items: toolCall };
const metadata: JsonSchema = {
  type: 'object',
  required: ['last_activity', 'message_count'],
  properties: { last_activity: str, message_count: int },
  additionalProperties: false,
};

const sessionSummaryFields: Record<string, JsonSchema> = {
  session_id: str,
  title: str,
  first_message: str,
  created_at: str,
  updated_at: str,
  message_count: int,
  agent_type: { enum: ['chat', 'cli'] },
};
export const sessionSummary: JsonSchema = {
  type: 'object',
  required: Object.keys(sessionSummaryFields),
  properties: sessionSummaryFields,
  additionalProperties: false,
};
export const sessionDetail: JsonSchema = {
  type: 'object',
  required: [...Object.keys(sessionSummaryFields), 'provider', 'model', 'conversation'],
  properties: { ...sessionSummaryFields, provider: str, model: str, conversation },
  additionalProperties: false,
};

// The request schemas are TypeBox so the routes (defineRoute) read them typed.
const sessionIdString = Type.String({ pattern: '^[a-f0-9-]{1,64}$' });
export const sessionIdParams = Type.Object({ session_id: sessionIdString });
export const sessionErrors = { 403: errorBody('session_access_denied'), 404: errorBody('session_not_found') };

const providerChoice = {
  provider: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  selected_pipeline_id: Type.Optional(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
};

export const chatBody = Type.Object({
  message: Type.String({ minLength: 1, maxLength: 32000 }),
  session_id: Type.Optional(sessionIdString),
  ...providerChoice,
  agent_type: Type.Optional(Type.Enum(['chat', 'cli'])),
});
export const continueBody = Type.Object({
  session_id: sessionIdString,
  ...providerChoice,
  confirm_tool_call_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'The user confirms the destructive call the session holds (data.pending_confirmation.id)',
    }),
  ),
});

/** Errors both running routes share: provider choice and failure, the lease, X-Request-ID. */
const runErrors = {
  400: errorBody('provider_not_found', 'provider_not_configured', 'provider_error', 'invalid_request_id'),
  409: errorBody('session_busy', 'request_in_progress', 'nothing_to_continue', 'nothing_to_confirm'),
  422: errorBody('request_id_reused'),
  502: errorBody('provider_error'),
  ...sessionErrors,
};

const common = { session_id: str, response: str, tool_calls: toolCalls, conversation, metadata };
const outcome = { completed: bool, turn_number: int, max_turns_reached: bool, pending_confirmation: pendingConfirmation };

export const chatResponses = {
  200: successBody({
    ...common,
    data: {
      type: 'object',
      required: ['session_id', 'response', 'tool_calls', 'conversation', 'completed', 'turn_number', 'max_turns_reached'],
      properties: { session_id: str, response: str, tool_calls: toolCalls, conversation, ...outcome },
      additionalProperties: false,
    },
  }),
  ...runErrors,
};

export const continueResponses = {
  200: successBody({
    ...common,
    data: {
      type: 'object',
      required: ['session_id', 'new_messages', 'response', 'tool_calls', 'completed', 'turn_number', 'max_turns_reached'],
      properties: { session_id: str, new_messages: conversation, response: str, tool_calls: toolCalls, ...outcome },
      additionalProperties: false,
    },
  }),
  ...runErrors,
};
