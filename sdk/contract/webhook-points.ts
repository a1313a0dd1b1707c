/**
 * The webhooks domain's extension points (issue 54): only core-webhooks reads webhook
 * presets and verification modes, so they are its points, not kernel kinds. A plugin
 * contributes as before, `deps: { presets: services.presets, verifiers: services.verifiers }`
 * (the same references), and the webhooks service reads what was added, at call time.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import type { PresetDefinition, VerifierDefinition } from '../kernel/contributions.js';
import { checkTemplate } from '../webhooks/hmac-template.js';

/** The plugin that owns both points (core/webhooks/plugin.ts). */
const owner = 'core-webhooks';

/** HMAC presets offered at GET /webhook-presets and by `preset` on a flow's webhook; keyed by `slug`. */
export const webhookPresets = createExtensionPoint<PresetDefinition>({
  id: 'webhooks.presets',
  owner,
  key: 'slug',
  description: 'a webhook HMAC preset (a template users copy onto a flow)',
  // A preset is a template users copy onto flows: a broken one would boot and fail later
  // with 400 invalid_template, naming neither the preset nor its plugin.
  check(preset) {
    const problems = checkTemplate(structuredClone(preset.template));
    if (problems.length) throw new Error(problems.join('; '));
  },
});

/** Verification modes beyond bearer and hmac (the twilio mode...); keyed by `mode`. */
export const webhookVerifiers = createExtensionPoint<VerifierDefinition>({
  id: 'webhooks.verifiers',
  owner,
  key: 'mode',
  description: 'a webhook verification mode (checks an inbound delivery)',
});
