import { type ApiError, isApiError } from '../../core/errors.js';
import { UnsupportedDocumentError } from '../../core/store/port.js';
import type { ValidationIssue } from '../../core/kernel/validator.js';
import { apiError } from '../../core/errors/catalogue.js';

/** The WordPress-style errors the host raises for its own failures. */
export const noRoute = () => apiError('rest_no_route');

export function validationError(where: 'params' | 'query' | 'body', issues: ValidationIssue[]): ApiError {
  const missing = issues.filter((i) => i.missing).map((i) => i.field);
  if (missing.length) {
    return apiError('rest_missing_callback_param', {
      message: `Missing parameter(s): ${missing.join(', ')}`,
      data: { params: missing, in: where },
    });
  }
  const params: Record<string, string> = {};
  for (const issue of issues) params[issue.field || where] = issue.message;
  // The message says each rule, not only the names: "status must be one of: publish, draft".
  return apiError('rest_invalid_param', {
    message: `Invalid parameter(s): ${Object.values(params).join('; ')}`,
    data: { params, in: where },
  });
}

/** Any thrown value → status + body; unexpected errors become 500 internal_error without details. */
export function toErrorResponse(
  error: unknown,
  requestId: string,
): { status: number; body: Record<string, unknown>; headers: Record<string, string>; unexpected: boolean } {
  if (isApiError(error)) {
    // By brand: an error from a plugin's own copy of the SDK keeps its status. Its body is
    // rebuilt here rather than trusted to that copy's toBody().
    const body = { code: error.code, message: error.message, data: { ...error.data, status: error.status } };
    return { status: error.status, body, headers: error.headers ?? {}, unexpected: false };
  }
  // A value from the request that neither store can keep (routes bound their input first;
  // this is the last line, in the store port, for what slips through a free-form field).
  if (error instanceof UnsupportedDocumentError) {
    const refused = apiError('rest_invalid_document', {
      message: `The request cannot be stored: ${error.reason}.`,
      data: { reason: error.reason },
    });
    return { status: 400, body: refused.toBody(), headers: {}, unexpected: false };
  }
  return {
    status: 500,
    body: {
      code: 'internal_error',
      message: `An unexpected error occurred (request ${requestId}).`,
      data: { status: 500, request_id: requestId },
    },
    headers: {},
    unexpected: true,
  };
}
