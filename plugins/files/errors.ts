/** The files plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const filesError = definePluginErrors('files', {
  files_not_found: { status: 404, message: 'No file with that id.' },
});
