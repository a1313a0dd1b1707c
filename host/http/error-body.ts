import { ApiError } from '../../core/errors.js';
import type { ValidationIssue } from '../../core/kernel/validator.js';

/** The WordPress-style errors the host raises for its own failures. */
export const noRoute = () => new ApiError('rest_no_route', 'No route was found matching the URL and request method.', 404);

export function validationError(where: 'params' | 'query' | 'body', issues: ValidationIssue[]): ApiError {
  const missing = issues.filter((i) => i.missing).map((i) => i.field);
  if (missing.length) {
    return new ApiError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, { params: missing, in: where });
  }
  const params: Record<string, string> = {};
  for (const issue of issues) params[issue.field || where] = issue.message;
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, 400, { params, in: where });
}

/** Any thrown value → status + body; unexpected errors become 500 internal_error without details. */
export function toErrorResponse(error: unknown, requestId: string): { status: number; body: Record<string, unknown>; headers: Record<string, string>; unexpected: boolean } {
  if (error instanceof ApiError) return { status: error.status, body: error.toBody(), headers: error.headers, unexpected: false };
  return {
    status: 500,
    body: { code: 'internal_error', message: `An unexpected error occurred (request ${requestId}).`, data: { status: 500, request_id: requestId } },
    headers: {},
    unexpected: true,
  };
}
