// ajv's errors as one readable issue per field. Apart from validator.ts so that code reading
// a validator compiled at build time (the host config) does not load ajv itself.
import type { ErrorObject } from 'ajv';

export interface ValidationIssue {
  /** Dot path of the offending field ('' for the value itself). */
  field: string;
  message: string;
  /** True when the field is required and absent. */
  missing: boolean;
}

/** Turns ajv errors into one issue per field, with readable messages. */
export function describeErrors(errors: ErrorObject[] | null | undefined): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const error of errors ?? []) {
    // A failed if/then says only 'must match "then" schema'; the errors inside `then`,
    // reported beside it, name the field and what it must be.
    if (error.keyword === 'if') continue;
    const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (error.keyword === 'required') {
      const field = [base, (error.params as { missingProperty: string }).missingProperty].filter(Boolean).join('.');
      issues.push({ field, message: `${field} is required`, missing: true });
      continue;
    }
    if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      const field = [base, extra].filter(Boolean).join('.');
      issues.push({ field, message: `${field} is not an allowed property`, missing: false });
      continue;
    }
    const field = base;
    const subject = field || 'value';
    let message = `${subject} ${error.message ?? 'is invalid'}`;
    if (error.keyword === 'enum') {
      const allowed = (error.params as { allowedValues: unknown[] }).allowedValues ?? [];
      // An allowed empty string (a form's blank field: no filter) is said in words, not as a trailing ", ".
      const listed = allowed.filter((value) => value !== '').join(', ');
      message = `${subject} must be one of: ${listed}${allowed.includes('') ? ', or empty' : ''}`;
    }
    if (!issues.some((i) => i.field === field)) issues.push({ field, message, missing: false });
  }
  return issues;
}
