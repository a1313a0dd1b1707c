/** The billing plugin's error codes (docs/billing.md), declared once with their status. */
import { definePluginErrors } from '../../sdk/index.js';

export const billingError = definePluginErrors('billing', {
  invalid_payload: {
    status: 400,
    message: 'Invalid payload.',
    when: 'a provisioning payload with a bad field (`data.field`), or a signed payment body that is not an event',
  },
  unsupported_event: {
    status: 400,
    message: 'Unsupported provisioning event.',
    when: 'a provisioning event type the plugin does not know; `data.supported` lists them',
  },
  subscription_not_found: { status: 404, message: 'No such subscription.' },
  subscription_deleted: { status: 400, message: 'The subscription has been deleted; it cannot be provisioned.' },
  event_not_found: { status: 404, message: 'No such stored event.' },
  domain_not_found: { status: 404, message: 'No renewal recorded for that domain.' },
  provisioner_unauthorized: {
    status: 401,
    message: 'The provisioner credentials (X-Provisioner-Internal-Key and bearer token) are missing or wrong.',
    when: 'one code whichever provisioner header is wrong',
  },
  payment_signature_invalid: { status: 401, message: 'The Stripe-Signature header does not verify against this endpoint.' },
});
