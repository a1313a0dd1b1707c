/** The metrics plugin's error codes, declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const metricsError = definePluginErrors('metrics', {
  metrics_forbidden: {
    status: 403,
    message: 'The metrics endpoint refused the request.',
    when: 'no or a wrong metrics token, or an address not allowed',
  },
});
