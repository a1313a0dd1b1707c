/** The chat plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const chatError = definePluginErrors('chat', {
  provider_not_configured: {
    status: 400,
    message: 'No AI provider is configured.',
    when: 'no provider registered, no API key for it, or no model',
  },
  provider_error: {
    status: [400, 502],
    message: 'The AI provider failed.',
    when: '400 when the provider is not configured, 502 when it failed or refused',
  },
  invalid_request_id: { status: 400, message: 'X-Request-ID must be 1–128 characters of letters, digits and . _ : @ + = / -' },
  request_id_reused: { status: 422, message: 'X-Request-ID was already used for a different request; send a new id for a new request.' },
  request_in_progress: { status: 409, message: 'The request with this X-Request-ID is still running; retry once it has finished.' },
  session_not_found: { status: 404, message: 'No such chat session.' },
  session_access_denied: { status: 403, message: 'The chat session belongs to another user.' },
  session_busy: { status: 409, message: 'The chat session is answering another request; try again when it has finished.' },
  nothing_to_confirm: { status: 409, message: 'The chat session holds no call to confirm.' },
  nothing_to_continue: { status: 409, message: "The chat session ended with the assistant's answer: send a new message." },
});
