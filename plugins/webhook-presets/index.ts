import { definePlugin } from '../../sdk/index.js';
import { presets } from './presets.js';
import { twilioVerifier } from './twilio-verifier.js';

export default definePlugin({
  id: 'webhook-presets',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Webhook HMAC presets (GitHub, Stripe, Shopify, Slack, Standard Webhooks) and the twilio verification mode.',
  setup(host) {
    host.hooks.presets.tap('webhook-presets', (list) => [...list, ...presets]);
    host.hooks.verifiers.tap('webhook-presets', (list) => [...list, twilioVerifier]);
  },
});
