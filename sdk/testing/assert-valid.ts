import type { ValidateFunction } from 'ajv';
import { describeErrors } from '../kernel/validator.js';

/**
 * What runHandler and runTool do before calling the code under test, as the host does:
 * `validate` checks `values` (filling in the schema's defaults), and a refusal throws
 * `<label>: <each problem>`.
 */
export function assertValid(validate: ValidateFunction, values: unknown, label: string): void {
  if (validate(values)) return;
  throw new Error(
    `${label}: ${describeErrors(validate.errors)
      .map((issue) => issue.message)
      .join('; ')}`,
  );
}
