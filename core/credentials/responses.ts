/** The bodies the credential routes answer (see docs/api.md). */
import type { JsonSchema } from '../kernel/json-schema.js';
import { anyObject, bool, errorBody, mapOf, obj, str, successBody } from '../kernel/response-schemas.js';

/** Each credential field of the handler, masked. */
const configStatus = mapOf(str);

const status = obj(
  {
    handler_slug: str,
    requires_auth: bool,
    authenticated: bool,
    account_details: anyObject,
    error: bool,
    error_code: { type: ['string', 'null'] },
    error_message: { type: ['string', 'null'] },
    config_status: configStatus,
    oauth_url: str,
  },
  ['handler_slug', 'requires_auth', 'authenticated', 'config_status'],
);
const noProvider = errorBody('auth_provider_not_found');

export const credentialsResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /auth/{handler_slug}/status': { 200: successBody({ data: status }), 404: noProvider },
  'PUT /auth/{handler_slug}': {
    200: successBody({ message: str, config_status: configStatus, data: obj({ config_status: configStatus, changed: bool }) }),
    400: errorBody('required_field_missing'),
    404: noProvider,
  },
  'DELETE /auth/{handler_slug}': { 200: successBody({ message: str }), 404: noProvider, 500: errorBody('disconnect_failed') },
};

/** The browser authorization: a redirect to the provider, or the popup's last page. */
export const authPagesResponses = (path: string): Record<string, Record<number, JsonSchema>> => ({
  [`GET ${path}`]: {
    200: { type: 'string', contentMediaType: 'text/html', description: "The popup's last page: tells the opener the outcome, then closes" },
    302: successBody({ location: str }),
    404: noProvider,
  },
});
