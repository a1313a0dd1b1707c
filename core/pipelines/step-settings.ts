import type { ValidateFunction } from 'ajv';
import type { StepTypeDefinition } from '../../sdk/kernel/contributions.js';
import { compileShared, createAjv, describeErrors } from '../kernel/validator.js';
import { apiError } from '../errors/catalogue.js';

/**
 * A step type's own settings (StepTypeDefinition.settings, e.g. the approval step's mode
 * and timeout) checked when a pipeline step of that type is configured, so a wrong value
 * is refused at save, naming the field, rather than failing the run later.
 */
export class StepSettingsCheck {
  private readonly ajv = createAjv({ useDefaults: false });
  private readonly validators = new WeakMap<object, ValidateFunction>();

  /** Throws rest_invalid_param (400) naming each wrong field; a type without a schema accepts anything. */
  check(type: StepTypeDefinition, config: Record<string, unknown>): void {
    if (!type.settings) return;
    let validate = this.validators.get(type.settings);
    if (!validate) {
      validate = compileShared(this.ajv, type.settings as object);
      this.validators.set(type.settings, validate);
    }
    if (validate(structuredClone(config))) return;
    const params: Record<string, string> = {};
    for (const issue of describeErrors(validate.errors)) params[issue.field || 'config'] = issue.message;
    throw apiError('rest_invalid_param', {
      message: `Invalid settings for a ${type.type} step: ${Object.values(params).join('; ')}`,
      data: { params },
    });
  }
}
