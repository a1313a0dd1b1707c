/** What the CLI knows of billing without importing it (Stripe, the mailer): `flowhost --help` reads this. */
import { definePluginManifest } from '../../sdk/manifest.js';

export default definePluginManifest({
  id: 'billing',
  cli: [
    {
      noun: 'billing',
      describe: 'Subscriptions, payment and provisioning events (the billing plugin)',
      load: async () => (await import('./cli.js')).billingCli,
    },
  ],
  load: async () => (await import('./index.js')).default,
});
