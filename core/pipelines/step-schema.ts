import type { JsonSchema } from '../kernel/json-schema.js';
import { int, named, openObj, str } from '../kernel/response-schemas.js';

/** A pipeline step as answered: its own fields plus its free-form config (an ai step's provider, model...). */
export const pipelineStepView: JsonSchema = named(
  'PipelineStep',
  openObj({ pipeline_step_id: str, step_type: str, execution_order: int, label: str }),
);
