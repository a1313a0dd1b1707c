import { definePlugin, services } from '../../sdk/index.js';
import { presets } from './presets.js';
import { twilioVerifier } from './twilio-verifier.js';

export default definePlugin({
  id: 'webhook-presets',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Webhook HMAC presets (GitHub, Stripe, Shopify, Slack, Standard Webhooks) and the twilio verification mode.',
  deps: { presets: services.presets, verifiers: services.verifiers },
  setup(deps) {
    for (const preset of presets) deps.presets.add(preset);
    deps.verifiers.add(twilioVerifier);
  },
});
