/**
 * Every error code the host and the core domains answer, declared once with its status
 * and default message. Plugins declare their own codes with definePluginErrors and reuse
 * these through `apiError`; docs/api.md's tables are generated from here.
 */
import { defineErrors, type ErrorEntries } from './define-errors.js';

/** The host's own errors: what any route can answer, before or around its handler. */
const host = {
  rest_no_route: {
    status: 404,
    message: 'No route was found matching the URL and request method.',
    when: 'no route for the path, or none for that method',
  },
  rest_invalid_json: {
    status: 400,
    message: 'The body is not valid JSON.',
    when: 'the body is not valid JSON, is nested deeper than 64 levels, or holds a number out of range',
  },
  rest_invalid_url: {
    status: 400,
    message: 'The URL path has an invalid percent-escape (each % must start a valid UTF-8 sequence such as %20).',
    when: 'the path has an invalid percent-escape',
  },
  rest_invalid_document: { status: 400, message: 'The request cannot be stored.', when: 'a value no store can keep (see Input limits)' },
  rest_missing_callback_param: {
    status: 400,
    message: 'Missing parameter(s).',
    when: 'a required field is absent; `data.params` lists them (missing fields win over invalid ones)',
  },
  rest_invalid_param: {
    status: 400,
    message: 'Invalid parameter(s).',
    when: 'a field fails its schema; `data.params` maps each field to a message, and the message says each rule (`status must be one of: publish, draft`)',
  },
  rest_not_logged_in: {
    status: 401,
    message: 'You are not currently logged in.',
    when: 'anonymous on a protected route (also: a cookie without its nonce)',
  },
  rest_invalid_credentials: {
    status: 401,
    message: 'Invalid login or password.',
    when: 'any bad credential: unknown login, wrong or revoked application password, a bad bearer token (garbled, unknown or revoked), wrong session password, bad local credential. One code and message, and the same time whether the login exists or not',
  },
  rest_forbidden: {
    status: 'auth',
    message: 'Sorry, you are not allowed to do that.',
    when: 'logged in without the capability (403); wp/v2-style routes answer an anonymous caller 401 with it, as WordPress does',
  },
  rest_cookie_invalid_nonce: {
    status: 403,
    message: 'Cookie check failed: the nonce is invalid or expired.',
    when: 'a session cookie with a wrong nonce, or `DELETE /session` without one (the admin client refetches the nonce and retries once on exactly this code)',
  },
  rest_request_timeout: { status: 408, message: 'The request body arrived too slowly.', when: 'a body that stalls or drags past its time' },
  rest_headers_too_large: {
    status: 431,
    message: 'The request line or headers are larger than 16 KB.',
    when: "before any route: Node's HTTP parser refuses the request line or headers (answered, then the connection closed)",
  },
  rest_too_many_connections: {
    status: 503,
    message: 'Too many connections from this address.',
    when: 'before any route: the address already holds `FLOWHOST_MAX_CONNECTIONS_PER_ADDRESS` connections (see docs/operations.md)',
  },
  rest_payload_too_large: {
    status: 413,
    message: 'The request body is larger than the limit.',
    when: 'body over the limit (`FLOWHOST_BODY_LIMIT`, default 1 MiB); the connection is closed without reading the rest',
  },
  rest_too_many_requests: {
    status: 429,
    message: 'Too many requests.',
    when: 'too many failed logins (or failed webhook authentications from one address, past a budget; see the trigger); `Retry-After` header in seconds, `data.retry_after` too on logins',
  },
  rest_bad_request: {
    status: '4xx',
    message: 'Bad request.',
    when: 'a request the HTTP layer refuses before any route, with its own status',
  },
  internal_error: {
    status: 500,
    message: 'An unexpected error occurred.',
    when: 'anything unexpected; logged with the request id, no stack or detail in the body',
  },
  store_unavailable: {
    status: 503,
    message: 'The store is unavailable.',
    when: '`GET /healthz` and `GET /readyz` when the store does not answer',
  },
  host_starting: {
    status: 503,
    message: 'Flowhost is starting; try again in a moment.',
    when: '`GET /readyz` while the host starts (`Retry-After: 1`); while the port is bound and the host not yet serving, every request gets it',
  },
  host_stopping: {
    status: 503,
    message: 'Flowhost is stopping; send requests to another host.',
    when: '`GET /readyz` while the host stops (`Retry-After: 1`)',
  },
  plugin_not_found: {
    status: 404,
    message: 'No plugin of that id is loaded.',
    when: '`/plugins/{id}/settings` for an id this build does not load',
  },
  plugin_has_no_settings: {
    status: 400,
    message: 'This plugin declares no settingsSchema: it has no settings to change.',
    when: '`PATCH /plugins/{id}/settings` for a plugin without a `settingsSchema`',
  },
  plugin_install_failed: {
    status: 422,
    message: 'npm could not install the package.',
    when: '`POST /installed-plugins` or an update: npm refused the spec (no such package or version, an unreachable tarball or git URL); the message quotes npm',
  },
  plugin_incompatible: {
    status: 422,
    message: 'The package cannot run on this host; nothing was changed.',
    when: 'an install or update whose package needs another Flowhost or Node.js, lists flowhost outside peerDependencies, is no plugin, repeats a loaded id, or whose `dependsOn` is not met; `data.problems` lists each',
  },
  plugin_not_allowed: {
    status: 403,
    message: 'This package is not on the plugin allow-list (FLOWHOST_PLUGIN_ALLOW).',
    when: 'an install through the API of a package, tarball or git URL the allow-list does not name',
  },
  plugin_not_installed: {
    status: 404,
    message: 'No installed plugin has this id.',
    when: '`/installed-plugins/{id}...` for an id not installed',
  },
  plugin_already_installed: { status: 409, message: 'This package is installed already; update it instead.' },
  plugin_required: {
    status: 409,
    message: 'Another enabled installed plugin depends on this one.',
    when: 'disabling or removing an installed plugin whose `dependsOn` another enabled installed plugin names',
  },
  plugin_running: {
    status: 409,
    message: 'The plugin runs on this host: its data cannot be purged while it can write it again.',
    when: 'removing an installed plugin with purge through a host that still runs it: disable it, restart, then remove it with purge',
  },
  plugin_install_busy: {
    status: 409,
    message: 'Another plugin install runs on this data directory; retry when it ends.',
    when: 'an install, update or removal while another one (API or CLI) changes the plugins folder',
  },
  plugin_install_unavailable: {
    status: 503,
    message: 'Plugins cannot be installed here (npm was not found, or the host has no data directory).',
  },
} as const satisfies ErrorEntries;

/** wp/v2 and the content store: WordPress's codes and statuses where WordPress has them. */
const content = {
  rest_type_invalid: { status: 404, message: 'Invalid post type.' },
  rest_taxonomy_invalid: { status: 404, message: 'Invalid taxonomy.' },
  rest_post_invalid_id: {
    status: [404, 400],
    message: 'Invalid post ID.',
    when: '404 for the post in the path, 400 for a post named in the body or query',
  },
  rest_post_invalid_parent: { status: 400, message: 'Invalid post parent ID.' },
  rest_post_invalid_page_number: { status: 400, message: 'The page number requested is larger than the number of pages available.' },
  rest_term_invalid: {
    status: [404, 400],
    message: 'Term does not exist.',
    when: '404 for the term in the path, 400 for a parent term that does not exist',
  },
  rest_user_invalid_id: { status: 404, message: 'Invalid user ID.' },
  rest_forbidden_context: {
    status: 'auth',
    message: 'Sorry, you are not allowed to edit this post.',
    when: 'asked for `context=edit` (or terms of a post) without the right',
  },
  rest_orderby_include_missing_include: {
    status: 400,
    message: 'You need to define an include parameter to order by include.',
    when: '`orderby=include` on a wp/v2 list without `include`',
  },
  rest_cannot_view: {
    status: 'auth',
    message: 'Sorry, you are not allowed to edit posts in this post type.',
    when: '`GET /types` or `/taxonomies` with `context=edit`, for someone who may edit no post (manage no term)',
  },
  rest_forbidden_orderby: { status: 'auth', message: 'Sorry, you are not allowed to order users by this parameter.' },
  rest_forbidden_who: { status: 'auth', message: 'Sorry, you are not allowed to query users by this parameter.' },
  rest_user_cannot_view: { status: 'auth', message: 'Sorry, you are not allowed to list users.' },
  rest_cannot_edit: { status: 'auth', message: 'Sorry, you are not allowed to edit this post.' },
  rest_cannot_edit_others: { status: 'auth', message: 'Sorry, you are not allowed to edit posts as this user.' },
  rest_cannot_publish: { status: 'auth', message: 'Sorry, you are not allowed to publish posts in this post type.' },
  rest_cannot_delete: { status: 'auth', message: 'Sorry, you are not allowed to delete this post.' },
  rest_already_trashed: { status: 410, message: 'The post has already been deleted.' },
  rest_trash_not_supported: { status: 501, message: "The post does not support trashing. Set 'force=true' to delete." },
  empty_content: { status: 400, message: 'Content, title, and excerpt are empty.' },
  invalid_post: { status: 400, message: 'Invalid post.', when: 'a post field the content store refuses; `data.field` names it' },
  invalid_post_query: {
    status: 400,
    message: 'Invalid post query.',
    when: 'a post query the content store refuses; `data.field` names it',
  },
  invalid_term: {
    status: 400,
    message: 'Invalid term.',
    when: 'a term field the content store refuses (`data.field` names it), or a parent that does not exist',
  },
  term_exists: { status: 400, message: 'A term with the name provided already exists in this taxonomy.' },
  term_not_found: { status: 404, message: 'No term with that id.' },
  post_not_found: { status: 404, message: 'No post with that id.' },
  post_slug_conflict: { status: 409, message: 'The slug stayed taken after several attempts.' },
} as const satisfies ErrorEntries;

/** Uploads (wp/v2 media and plugins' upload routes), as WordPress names them. */
const uploads = {
  rest_upload_too_large: { status: 413, message: 'The file is larger than the upload limit.' },
  rest_upload_sideload_error: { status: 400, message: 'Sorry, you are not allowed to upload this file type.' },
  rest_upload_no_data: { status: 400, message: 'No data supplied: send the file as multipart/form-data or as the raw request body' },
  rest_upload_invalid: {
    status: 400,
    message: 'The upload cannot be read.',
    when: 'an interrupted or malformed multipart body, or a form over its limits',
  },
  rest_upload_no_content_disposition: { status: 400, message: 'No Content-Disposition supplied.' },
  rest_upload_invalid_disposition: { status: 400, message: 'Invalid Content-Disposition supplied.' },
} as const satisfies ErrorEntries;

/** Flows, pipelines, jobs, the engine and handler settings. */
const workflows = {
  flow_not_found: { status: 404, message: 'Flow not found.' },
  revision_not_found: { status: 404, message: 'No such revision of this flow or pipeline.' },
  flow_running: { status: 409, message: 'The flow is already running.' },
  flow_orphaned: {
    status: 409,
    message: 'The flow names a handler or step type no loaded plugin provides.',
    when: 'POST /execute of a flow an enabled step of which names a handler or step type of a plugin that is not loaded; `data.orphaned` lists each with its reason (load the plugin again, or pick another handler)',
  },
  pipeline_not_found: { status: 404, message: 'Pipeline not found.' },
  step_not_found: { status: 404, message: 'Pipeline step not found.' },
  job_not_found: { status: 404, message: 'Job not found.' },
  job_finished: {
    status: 409,
    message: 'The job has already ended.',
    when: 'POST /jobs/{id}/cancel of a job that is no longer pending or processing; `data.job_status` is its state',
  },
  job_not_retryable: {
    status: 409,
    message: 'Only a failed or cancelled job can be retried.',
    when: 'POST /jobs/{id}/retry of a job that is pending, running or ended well; `data.job_status` is its state',
  },
  job_already_retried: {
    status: 409,
    message: 'The job has already been retried.',
    when: 'POST /jobs/{id}/retry of a job retried before; `data.retried_by` is the retry (retry that one if it failed too)',
  },
  retry_input_unavailable: {
    status: 409,
    message: 'The failed step’s input was not kept; retry from the start.',
    when: 'POST /jobs/{id}/retry with from=failed_step of a job whose failed step’s input was too large to keep (4 MiB of JSON) or that ran before inputs were kept',
  },
  job_not_waiting: {
    status: 409,
    message: 'The job is not waiting for review.',
    when: 'POST /jobs/{id}/approve or /reject (or a review link, a webhook-mode delivery) of a job that is not `waiting`; `data.job_status` is its state',
  },
  review_step_removed: {
    status: 409,
    message: 'The step the job waited at was removed from its flow; the job failed.',
    when: 'POST /jobs/{id}/approve or /reject (or a review link, a webhook-mode delivery) of a job whose approval step (or its pipeline step) was removed while it waited: the job fails with that reason, nothing is decided',
  },
  review_items_unknown: {
    status: 400,
    message: 'The job does not wait for these items.',
    when: 'POST /jobs/{id}/approve or /reject naming item ids the waiting step does not hold; `data.unknown_items` lists them',
  },
  review_link_invalid: {
    status: 403,
    message: 'The review link is not valid.',
    when: 'a review link or webhook-mode URL whose token is malformed, altered, signed for another job or purpose, or a webhook delivery to a job waiting for review',
  },
  review_link_expired: { status: 410, message: 'The review link has expired.', when: 'a review link or webhook-mode URL past its expiry' },
  review_link_used: {
    status: 409,
    message: 'The review link has already been used.',
    when: 'a review link or webhook-mode URL used before (each works once, on any host), or one of an earlier wait of the job',
  },
  config_not_found: {
    status: [400, 404],
    message: 'No such flow step.',
    when: '404 for the flow step in the path, 400 for flow_config naming a step the pipeline lacks',
  },
  invalid_step_order: { status: 400, message: 'step_order must list every step of the pipeline exactly once' },
  invalid_step_type: { status: 400, message: 'Unknown step type.' },
  step_type_mismatch: { status: 400, message: 'The step is of another type.' },
  pipeline_mismatch: { status: 400, message: 'The step belongs to another pipeline.' },
  not_an_ai_step: { status: 400, message: 'user_message applies to ai steps.' },
  handler_not_set: { status: 400, message: 'The flow step has no handler yet.' },
  handler_not_found: {
    status: [400, 404],
    message: 'No such handler is registered.',
    when: '404 for the handler in the path, 400 for one named in the body',
  },
  handler_step_mismatch: { status: 400, message: 'The handler is for another step type.' },
  handler_settings_incomplete: {
    status: 409,
    message: 'The flow step lacks required handler settings.',
    when: "never an HTTP answer: a run that reaches a step whose handler lacks required settings fails with it; GET /jobs/{id} shows the step's `error_code` and `missing_settings`",
  },
  provider_not_found: {
    status: [400, 404],
    message: 'No such AI provider is registered.',
    when: '404 for the provider in the path, 400 for one named in the body',
  },
  invalid_import: { status: 400, message: 'The import cannot be read.' },
} as const satisfies ErrorEntries;

/** Users, application passwords, sessions. */
const users = {
  user_not_found: { status: 404, message: 'No such user.' },
  user_exists: { status: 409, message: 'A user with that login already exists.' },
  last_administrator: { status: 409, message: 'The last administrator cannot be deleted' },
  invalid_login: {
    status: 400,
    message: 'Login must be 1-60 letters, digits, or . _ @ -, starting with a letter or digit',
    when: 'the CLI (`flowhost users create`); over HTTP the body schema refuses such a login first, as `rest_invalid_param`',
  },
  invalid_role: {
    status: 400,
    message: 'Unknown role.',
    when: 'the CLI; over HTTP the body schema refuses an unknown role first, as `rest_invalid_param`',
  },
  invalid_capability: { status: 400, message: 'That capability cannot be granted.' },
  invalid_name: { status: 400, message: 'Application password name must be 1-100 characters' },
  application_password_not_found: { status: 404, message: 'No application password with that uuid for this user' },
  incorrect_password: {
    status: 400,
    message: 'The current password is not correct.',
    when: '`PUT /session/password` with a wrong or missing `current_password`; a wrong one counts as a failed login',
  },
  weak_password: { status: 400, message: 'Password must be at least 8 characters' },
} as const satisfies ErrorEntries;

/** Credentials and auth providers. */
const credentials = {
  auth_provider_not_found: { status: 404, message: 'No such handler or auth provider is registered.' },
  required_field_missing: { status: 400, message: 'Missing required field.' },
  disconnect_failed: { status: 500, message: 'The account could not be disconnected.' },
} as const satisfies ErrorEntries;

/** Webhook triggers. */
const webhooks = {
  rest_unauthorized: {
    status: 401,
    message: 'Unauthorized.',
    when: 'a webhook call that does not authenticate (one answer whatever was wrong)',
  },
  webhook_not_enabled: { status: 404, message: 'The flow has no webhook trigger.' },
  webhook_event_in_progress: {
    status: 409,
    message: 'This event is being accepted by another request; retry shortly.',
    when: 'a repeat of an event id or Idempotency-Key whose first request is still being accepted (after waiting 2 s)',
  },
  secret_not_found: { status: 404, message: 'No such secret on this flow.' },
  invalid_idempotency_key: {
    status: 400,
    message: 'The Idempotency-Key header is not a valid key.',
    when: 'an authenticated trigger request whose `Idempotency-Key` is empty, longer than 255 characters, sent twice, or not visible ASCII',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was already used for a delivery with a different body.',
    when: 'a repeat of an accepted `Idempotency-Key` (within the window) whose body differs from the first delivery',
  },
  preset_not_found: { status: 400, message: 'No such webhook preset is loaded.' },
  template_required: { status: 400, message: 'hmac mode needs a preset or a template' },
  invalid_template: { status: 400, message: 'Invalid HMAC template.' },
  invalid_mode: { status: 400, message: 'Unknown webhook mode.' },
  not_bearer: { status: 400, message: 'Only a bearer trigger has a token to regenerate; rotate the secret instead' },
  not_hmac: { status: 400, message: 'A bearer trigger has a token, not secrets' },
} as const satisfies ErrorEntries;

/** The core catalogue by area (the docs' table follows these groups). */
export const coreErrorAreas = { host, content, uploads, workflows, users, credentials, webhooks } as const;

const all = { ...host, ...content, ...uploads, ...workflows, ...users, ...credentials, ...webhooks } as const satisfies ErrorEntries;

/** The error for a core code: `throw apiError('flow_not_found', { message: \`Flow ${id} not found\` })`. */
export const apiError = defineErrors('core', all);

export type CoreErrorCode = keyof typeof all;
